/**
 * The {@code infer} role: layer-wise inference over the graph-worker core ({@code graphworker}). The client's
 * options ({@link org.yarngnn.app.infer.InferOptions}), the driver ({@link org.yarngnn.app.infer.InferenceDriver},
 * the same in the ApplicationMaster and with {@code --local}), the job in the ApplicationMaster ({@link
 * org.yarngnn.app.infer.InferenceJobDriver}), the worker ({@link org.yarngnn.app.infer.InferenceWorker}) and its
 * container entry point; what only inference does: layer checkpoints, replacing lost workers and continuing after
 * a dead ApplicationMaster, the part files, {@code --targets}' rows, and the nodewise baseline ({@link
 * org.yarngnn.app.infer.NodewiseBaseline}). Imports neither {@code train} nor {@code topk}.
 */
package org.yarngnn.app.infer;
