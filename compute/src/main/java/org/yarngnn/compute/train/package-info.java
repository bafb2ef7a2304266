/**
 * Training: the layers' backward passes in Deal's split, keyed dropout, loss, Adam, Glorot initialisation and a
 * single-JVM full-batch trainer.
 *
 * <p>Per layer and block, {@link org.yarngnn.compute.train.LayerStep} runs
 * {@code forwardTransform -> (halo rows of messages() filled by peers) -> forwardAggregate} forward and
 * {@code backwardAggregate -> (halo rows of messageGradients() sent to their owners, who addMessageGradient them)
 * -> backwardTransform} backward; {@link org.yarngnn.compute.train.Network} chains the steps over a whole graph,
 * {@link org.yarngnn.compute.train.FullGraphTrainer} adds the loss
 * ({@link org.yarngnn.compute.train.SoftmaxCrossEntropy}, sums so workers can add partials), the optimiser
 * ({@link org.yarngnn.compute.train.Adam}, per-range weight decay) over the flat
 * {@link org.yarngnn.compute.train.Parameters}, evaluation and the best-validation model.
 *
 * <p>The backward of an aggregation never scatters: per-destination work ({@code aggregateBackward}) is
 * followed by a per-source-slot gather over the transposed in-edges ({@link org.yarngnn.compute.train.OutEdges},
 * 8 bytes per edge), so each gradient row is written by one thread in a fixed order. Weight gradients are
 * reduced from per-thread partial buffers (one per thread, layer-sized, allocated once).
 */
package org.yarngnn.compute.train;
