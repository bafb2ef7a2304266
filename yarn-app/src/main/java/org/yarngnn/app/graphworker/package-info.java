/**
 * The graph-worker core every role stands on (inference, training, retrieval): what a worker that owns a partition
 * of the graph does whatever it computes, and what its driver asks of it.
 *
 * <p>Worker side: the common graph-job options ({@link org.yarngnn.app.graphworker.GraphJobOptions}); construction
 * ({@link org.yarngnn.app.graphworker.FeatureLoader} reads node rows, {@link
 * org.yarngnn.app.graphworker.WorkerConstruction} routes rows and edges to their owners and builds the partition,
 * {@link org.yarngnn.app.graphworker.ConstructionPhases} runs it phase by phase); the connections between workers
 * ({@link org.yarngnn.app.graphworker.WorkerMesh}); which rows move at each layer ({@link
 * org.yarngnn.app.graphworker.HaloPlan}, restricted to targets' receptive fields by {@link
 * org.yarngnn.app.graphworker.TargetPlan}) and moving them ({@link org.yarngnn.app.graphworker.HaloExchange}); the
 * messages of all that ({@link org.yarngnn.app.graphworker.GraphWorkerCodec}, which a role extends with its own).
 *
 * <p>Driver side: the construction rounds ({@link org.yarngnn.app.graphworker.ConstructionRounds}) and the
 * launchers of workers of any role, as YARN containers ({@link org.yarngnn.app.graphworker.ContainerWorkers}) or
 * threads of one JVM ({@link org.yarngnn.app.graphworker.ThreadWorkers}).
 *
 * <p>This package imports none of the roles ({@code infer}, {@code train}, {@code topk}); they import it. It
 * stands on {@code runtime} (the driver protocol), {@code transport} and {@code yarn}.
 */
package org.yarngnn.app.graphworker;
