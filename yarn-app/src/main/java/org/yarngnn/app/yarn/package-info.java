/**
 * The generic YARN runtime the jobs plug into.
 *
 * <p>Client side: {@link org.yarngnn.app.yarn.YarnJobClient#run} takes a {@link org.yarngnn.app.yarn.JobSubmission},
 * copies the jar ({@code yarn-gnn.jar}), the extra files and the client's configuration ({@code yarngnn-conf/},
 * first on every container's classpath, so the AM and workers see the client's addresses and {@code yarngnn.*}
 * settings) to {@code ~/.yarn-gnn/staging/<appId>} (key {@code yarngnn.staging-dir}), submits the AM, prints the
 * application id, tracking URL and a progress line, and returns a {@link org.yarngnn.app.yarn.JobResult}. Ctrl-C
 * kills the application; the staging directory is deleted in every case (by the AM too, after it unregisters).
 *
 * <p>Progress: the percentage is the AM's heartbeat progress ({@code ApplicationReport.getProgress}); the short
 * status text travels through {@code <staging>/_status} ({@link org.yarngnn.app.yarn.StatusFile}), since YARN
 * reports carry no free text while an application runs.
 *
 * <p>AM side: {@link org.yarngnn.app.yarn.AmMain} {@code <JobDriver class> args...} runs an
 * {@link org.yarngnn.app.yarn.ApplicationMaster}, which hands the {@link org.yarngnn.app.yarn.JobDriver} a
 * {@link org.yarngnn.app.yarn.DriverContext}: a {@link org.yarngnn.app.yarn.ContainerPool} to launch
 * {@link org.yarngnn.app.yarn.ContainerSpec}s, {@code setProgress}, the staging directory. Containers run
 * {@code $JAVA_HOME/bin/java <opts> --add-modules jdk.incubator.vector <mainClass> <args>} with CLASSPATH
 * {@code yarngnn-conf:./*:<yarn.application.classpath>} and learn their role and index from
 * {@link org.yarngnn.app.yarn.ContainerEnv}. A container failure stops all others and fails the application with
 * that container's diagnostics. {@code yarngnn.container.java-home} overrides the NodeManagers' JAVA_HOME.
 *
 * <p>Tracking URL: the AM serves {@link org.yarngnn.app.yarn.JobPage} (only through YARN's web proxy), fed by
 * the driver's {@link org.yarngnn.app.yarn.DriverContext#reporter}; as it unregisters it keeps the page's last
 * state in {@link org.yarngnn.app.yarn.JobHistory}, which {@code yarn-gnn status APP_ID} prints.
 *
 * <p>Smoke test of a cluster (the jar's own {@link org.yarngnn.app.yarn.SelfTestDriver}):
 * {@code HADOOP_CLASSPATH=yarn-gnn-<version>.jar hadoop org.yarngnn.app.yarn.SelfTestDriver --output /tmp/selftest}
 * exits 0 when two worker containers ran from the shipped jar and the application SUCCEEDED.
 *
 * <p>Above {@code runtime}: a {@link org.yarngnn.app.yarn.DriverContext} hands a driver the job's transport and a
 * progress reporter of the driver protocol; {@code runtime} imports nothing of this package.
 */
package org.yarngnn.app.yarn;
