/**
 * Exact retrieval kernels: the K candidates of highest dot product for each query ({@link ExactTopK}), the pairs a
 * query must never be given ({@link QueryPairs}), and ranking metrics against held-out pairs
 * ({@link RankingMetrics}). Plain Java on the project's GEMM kernels, no Hadoop.
 */
package org.yarngnn.compute.retrieval;
