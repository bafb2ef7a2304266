/**
 * The cost model of {@code infer} and {@code train} ({@link org.yarngnn.compute.cost.CostModel}): seconds per
 * phase, bytes exchanged per layer and memory per worker from the graph's size, the model, the workers and
 * measured per-core {@link org.yarngnn.compute.cost.CostRates}; {@code --dry-run} prints its estimate and
 * {@code scripts/bench/cost-model} calibrates and validates it.
 */
package org.yarngnn.compute.cost;
