/**
 * The typed driver protocol every job runs: the driver's {@link org.yarngnn.app.runtime.DriverSession}
 * (registration, peer table, barrier rounds, failures) and the worker's {@link
 * org.yarngnn.app.runtime.WorkerSession} (one {@link org.yarngnn.app.runtime.PhaseCommand} after another, each
 * answered with a {@link org.yarngnn.app.runtime.PhaseDone} or a {@link org.yarngnn.app.runtime.WorkerFailure}),
 * replacing lost workers ({@link org.yarngnn.app.runtime.WorkerRecovery}), and every participant's transport of
 * one job ({@link org.yarngnn.app.runtime.JobTransport}, its secret carried in the job's Hadoop credentials by
 * {@link org.yarngnn.app.runtime.JobSecretKey}).
 *
 * <p>Below {@code yarn}: the ApplicationMaster hosts drivers of this protocol, so {@code yarn} imports this package
 * and never the other way.
 */
package org.yarngnn.app.runtime;
