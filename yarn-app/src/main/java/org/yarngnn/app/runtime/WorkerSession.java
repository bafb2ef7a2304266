package org.yarngnn.app.runtime;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.Hello;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.MessageCodec;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.PeerTable;
import org.yarngnn.app.transport.TransportClient;
import org.yarngnn.app.transport.TransportOptions;

/**
 * A worker's side of the driver protocol, whatever the worker computes: register ({@link Hello} with the port of
 * the worker's own peer server), receive the peer table, then run each {@link PhaseCommand} through the
 * {@link Role} and answer {@link PhaseDone}, or {@link WorkerFailure} when it throws. Runs until
 * {@link Phase#EXIT} or a failure. Graph workers of inference implement a role; training's roles (tensor workers,
 * parameter servers) join the same way.
 */
public final class WorkerSession {
  /** What a worker does in each phase. */
  public interface Role extends AutoCloseable {
    /** The port the worker's peer server listens on (advertised to the driver). */
    int peerPort();

    /** Where every worker listens, sent once by the driver after all registered. */
    void peers(List<Endpoint> endpoints);

    /**
     * Takes a message from the driver that is not a command (training's {@link Weights}); false when the role
     * does not serve it (the session then fails as on any unexpected message).
     */
    default boolean accept(Message m) throws Exception {
      return false;
    }

    /**
     * Figures of the worker now (bytes sent and received so far, heap), sent with each answer for the job page;
     * quick to compute. None by default.
     */
    default java.util.Map<String, Double> gauges() {
      return java.util.Map.of();
    }

    /** Runs one phase; the result goes back to the driver. */
    PhaseResult run(PhaseCommand command) throws Exception;

    /**
     * Whether {@code command} runs on a thread of its own while the session goes on taking the driver's messages
     * ({@link #accept}, from the session's thread): a phase that lasts many steps and needs the driver's answers
     * in between (training's {@link Phase#TRAIN_ASYNC}).
     */
    default boolean concurrent(PhaseCommand command) {
      return false;
    }

    /**
     * The mesh generation the worker last connected at, carried to a newer driver by a survivor
     * ({@link Reconnect}); 0 by default.
     */
    default int generation() {
      return 0;
    }

    /** Where the role sends messages of its own to the driver (before the first command). */
    default void driver(DriverLink link) {}

    /**
     * Whether the worker outlives {@code e}, thrown by {@link #run}: then it answers {@link PhaseAborted} and
     * waits for the driver's next command (a job that replaces a lost peer, see {@link WorkerRecovery}) instead of
     * failing.
     */
    default boolean survives(Exception e) {
      return false;
    }

    @Override
    void close();
  }

  /** Sends a message to the driver on the session's connection (callable from any thread). */
  @FunctionalInterface
  public interface DriverLink {
    void send(Message m) throws Exception;
  }

  /** How long a worker waits for its Failure report to reach the driver before it exits anyway. */
  private static final long REPORT_WAIT_SECONDS = 5;
  /**
   * How long a worker container outlives its driver's connection before it halts: a phase in progress (a layer
   * waiting on peers, say) is of no use to anyone once the driver is gone, and a container a dead
   * ApplicationMaster attempt leaves must not linger (its attempt's containers are kept across attempts).
   */
  static final long DRIVER_GONE_EXIT_SECONDS = 10;

  private final int index;
  private final String driverHost;
  private final int driverPort;
  private final JobTransport transport;
  private final MessageCodec codec;
  private final boolean verbose;
  private Reconnect reconnect;
  private FaultHooks faults = FaultHooks.NONE;
  /** Which start of this worker it is (0 the first), for {@link #faults}. */
  private int start;
  /** The ApplicationMaster attempt whose driver this worker serves (from {@link #reconnect}; 0 without). */
  private int served;

  /**
   * How a worker outlives its driver when the ApplicationMaster has attempts left: it is worker of attempt
   * {@code attempt} of at most {@code maxAttempts}; once its driver's connection closed it polls {@code finder}
   * for a newer attempt's driver for up to {@code windowMillis} from the close, connects and says Hello again as a
   * survivor ({@link Hello.Survivor}, naming {@code container}); with none in time it exits as without. Its
   * watchdog then grants the window instead of {@value #DRIVER_GONE_EXIT_SECONDS} s.
   */
  public record Reconnect(int attempt, int maxAttempts, long windowMillis, String container, Finder finder) {
    /** The newest driver endpoint published so far (null: none yet); throws on a bad one. */
    @FunctionalInterface
    public interface Finder {
      DriverEndpoint find() throws Exception;
    }
  }

  /** This session outlives its driver as {@code r} says. */
  public WorkerSession reconnecting(Reconnect r) {
    this.reconnect = r;
    this.served = r.attempt();
    return this;
  }

  /** This session, start {@code start} (0 the first) of its worker, applies {@code hooks} at each phase's start. */
  public WorkerSession faults(FaultHooks hooks, int start) {
    this.faults = hooks;
    this.start = start;
    return this;
  }

  /**
   * Worker {@code index} of the driver at {@code driverHost:driverPort}; it advertises {@code transport}'s host
   * and authenticates to the driver as {@link Participants#worker}.
   */
  public WorkerSession(int index, String driverHost, int driverPort, JobTransport transport, MessageCodec codec,
      boolean verbose) {
    this.index = index;
    this.driverHost = driverHost;
    this.driverPort = driverPort;
    this.transport = transport;
    this.codec = codec;
    this.verbose = verbose;
  }

  /** A role built once the driver is reachable (it may bind sockets and start threads). */
  @FunctionalInterface
  public interface RoleFactory {
    Role create() throws Exception;
  }

  /**
   * Runs {@code c} on a thread of its own while this thread hands the driver's messages to the role; returns its
   * result, or null when the driver closed the connection. A command while it runs is refused.
   */
  private static PhaseResult runConcurrently(Role role, PhaseCommand c, InboundQueue control) throws Exception {
    java.util.concurrent.CompletableFuture<PhaseResult> done = new java.util.concurrent.CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        done.complete(role.run(c));
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    }, "phase-" + c.phase().label());
    t.setDaemon(true);
    t.start();
    try {
      while (!done.isDone()) {
        InboundQueue.Event ev = control.poll(100, TimeUnit.MILLISECONDS);
        if (ev == null) {
          continue;
        }
        if (ev.isClose()) {
          return null;
        }
        Message m = ev.message();
        if (m instanceof PhaseCommand || !role.accept(m)) {
          throw new IllegalStateException("unexpected message from the driver during " + c.phase().label() + ": "
              + m);
        }
      }
      return done.get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof Exception x ? x : new IllegalStateException(e.getCause());
    } finally {
      t.interrupt();
    }
  }

  /**
   * Serves the driver until it says exit (returns 0) or a phase fails: the failure is reported to the driver,
   * which ends the job; returns 0 for bad input (the driver reports it; a non-zero exit would race that report as
   * a container failure with a less precise reason) and 1 otherwise.
   */
  public int run(RoleFactory roles) {
    InboundQueue control = new InboundQueue();
    TransportOptions options = transport.options(codec, Participants.worker(index));
    try (TransportClient client = new TransportClient(options, control)) {
      client.start();
      java.util.concurrent.atomic.AtomicReference<PeerConnection> driver =
          new java.util.concurrent.atomic.AtomicReference<>();
      try {
        driver.set(client.connect(driverHost, driverPort, Participants.DRIVER));
      } catch (Exception e) {
        System.err.println("yarn-gnn worker " + index + ": cannot reach the driver at " + driverHost + ":"
            + driverPort + ": " + Failures.describe(e));
        return 1;
      }
      java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
      watch(driver.get(), driver, ended);
      Phase phase = Phase.JOB;
      Role role = null;
      try {
        role = roles.create();
        role.driver(m -> driver.get().sendBlocking(m));
        driver.get().sendBlocking(new Hello(index, transport.host(), role.peerPort()));
        while (true) {
          InboundQueue.Event ev = control.take();
          if (ev.connection() != driver.get()) {
            continue; // what an earlier driver's connection still delivers
          }
          if (ev.isClose()) {
            // The driver ended the job (another worker failed, or it was stopped), or its ApplicationMaster
            // died: a newer attempt's driver may adopt this worker, else nothing to report.
            PeerConnection next = follow(client, role, ev.connection());
            if (next == null) {
              return 1;
            }
            driver.set(next);
            watch(next, driver, ended);
            continue;
          }
          Message m = ev.message();
          if (m instanceof PeerTable t) {
            role.peers(t.endpoints());
            continue;
          }
          if (!(m instanceof PhaseCommand c)) {
            if (role.accept(m)) {
              continue;
            }
            throw new IllegalStateException("unexpected message from the driver: " + m);
          }
          phase = c.phase();
          PhaseResult result;
          try {
            faults.atPhaseStart(index, start, c);
            result = role.concurrent(c) ? runConcurrently(role, c, control) : role.run(c);
          } catch (Exception e) {
            if (!role.survives(e)) {
              throw e;
            }
            answer(driver.get(), new PhaseAborted(c.phase(), c.layer(), Failures.describe(e)));
            continue;
          }
          if (result == null) {
            return 1; // the driver ended the job while the phase ran
          }
          answer(driver.get(), new PhaseDone(c.phase(), c.layer(), result,
              c.phase() == Phase.EXIT ? java.util.Map.of() : role.gauges()));
          if (c.phase() == Phase.EXIT) {
            return 0;
          }
        }
      } catch (Exception | OutOfMemoryError | StackOverflowError e) {
        FailureKind kind = Failures.kindOf(e);
        try {
          driver.get().sendBlocking(new WorkerFailure(kind, index, phase, Failures.describe(e)));
          driver.get().closeFuture().get(REPORT_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception ignored) {
          // The driver is gone too; the exit status says enough.
        }
        if (verbose) {
          e.printStackTrace();
        }
        return kind == FailureKind.BAD_INPUT ? 0 : 1;
      } finally {
        ended.set(true);
        if (role != null) {
          role.close();
        }
      }
    } catch (Exception e) {
      System.err.println("yarn-gnn worker " + index + ": " + Failures.describe(e));
      return 1;
    }
  }

  /** Whether this worker may still be adopted by a newer ApplicationMaster attempt's driver. */
  private boolean mayFollow() {
    return reconnect != null && served < reconnect.maxAttempts();
  }

  /**
   * Sends an answer to the driver; a driver that is gone meanwhile is not this worker's failure (its close event
   * follows, and a survivor's answer is of no use to the next driver).
   */
  private void answer(PeerConnection driver, Message m) throws Exception {
    try {
      driver.sendBlocking(m);
    } catch (Exception e) {
      if (!mayFollow()) {
        throw e;
      }
      try {
        // A send that failed on a closing connection: its close follows at once.
        driver.closeFuture().get(REPORT_WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException x) {
        if (!driver.closeFuture().isDone()) {
          throw e;
        }
      }
    }
  }

  /**
   * In a container, ends the process once {@code c} closed and the session neither ended nor moved to another
   * driver within the grace: {@value #DRIVER_GONE_EXIT_SECONDS} s, or the reconnect window when a newer attempt
   * may adopt this worker.
   */
  private void watch(PeerConnection c, java.util.concurrent.atomic.AtomicReference<PeerConnection> current,
      java.util.concurrent.atomic.AtomicBoolean ended) {
    if (System.getenv("CONTAINER_ID") == null) {
      return;
    }
    long grace = mayFollow() ? reconnect.windowMillis() + TimeUnit.SECONDS.toMillis(DRIVER_GONE_EXIT_SECONDS)
        : TimeUnit.SECONDS.toMillis(DRIVER_GONE_EXIT_SECONDS);
    DriverWatchdog.arm(c.closeFuture(), grace, () -> ended.get() || current.get() != c, () -> {
      System.err.println("yarn-gnn worker " + index + ": the driver's connection closed " + grace / 1000
          + " s ago and the session has not ended: exiting");
      Runtime.getRuntime().halt(1);
    });
  }

  /**
   * After driver connection {@code gone} closed: polls (bounded by the reconnect window from now) for a driver of a
   * newer attempt, connects and registers with it as a survivor; null when there is none to follow.
   */
  private PeerConnection follow(TransportClient client, Role role, PeerConnection gone) throws Exception {
    if (!mayFollow()) {
      return null;
    }
    long deadline = System.currentTimeMillis() + reconnect.windowMillis();
    System.err.println("yarn-gnn worker " + index + ": the driver of attempt " + served + " is gone; waiting up to "
        + reconnect.windowMillis() / 1000 + " s for a newer attempt's driver");
    String lastProblem = null;
    while (System.currentTimeMillis() < deadline) {
      try {
        DriverEndpoint e = reconnect.finder().find();
        if (e != null && e.attempt() > served) {
          PeerConnection c = client.connect(e.host(), e.port(), Participants.DRIVER);
          c.sendBlocking(new Hello(index, transport.host(), role.peerPort(),
              new Hello.Survivor(served, role.generation(), reconnect.container())));
          System.err.println("yarn-gnn worker " + index + ": registered with the driver of attempt " + e.attempt()
              + " at " + e.host() + ":" + e.port() + " as a survivor of attempt " + served);
          served = e.attempt();
          return c;
        }
      } catch (Exception e) {
        String why = Failures.describe(e);
        if (!why.equals(lastProblem)) {
          System.err.println("yarn-gnn worker " + index + ": no newer driver yet: " + why);
          lastProblem = why;
        }
      }
      Thread.sleep(500);
    }
    System.err.println("yarn-gnn worker " + index + ": no newer attempt's driver within "
        + reconnect.windowMillis() / 1000 + " s: exiting");
    return null;
  }
}
