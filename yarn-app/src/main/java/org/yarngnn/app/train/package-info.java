/**
 * The {@code train} role (Dorylus over the graph-worker core, {@code graphworker}): the options ({@link
 * org.yarngnn.app.train.TrainOptions}), the driver with its parameter server ({@link
 * org.yarngnn.app.train.TrainingDriver}), the job in the ApplicationMaster ({@link
 * org.yarngnn.app.train.TrainJobDriver}), the worker ({@link org.yarngnn.app.train.TrainWorker}), bounded
 * asynchrony, checkpoints, the model written, and link prediction. Imports neither {@code infer} nor {@code topk}.
 */
package org.yarngnn.app.train;
