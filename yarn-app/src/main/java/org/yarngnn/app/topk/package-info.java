/**
 * The {@code topk} role: exact top-K retrieval over an embedding table, by workers launched as the graph workers
 * are ({@code graphworker}'s launchers) and driven through the same protocol ({@code runtime}). Imports neither
 * {@code infer} nor {@code train}.
 */
package org.yarngnn.app.topk;
