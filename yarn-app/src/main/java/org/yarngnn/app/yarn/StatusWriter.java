package org.yarngnn.app.yarn;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes the AM's {@link StatusFile} off the driver's thread: {@link #publish} only records the latest status; a
 * daemon thread writes it, the latest one winning, at most once per {@code minGapMillis}. Drivers report twice per
 * round (before and after), and on HDFS one create-and-close of the file takes 10 ms or, when the NameNode has not
 * yet heard of the block, 400 ms more (the client's completeFile back-off): written in line, that was most of a
 * small training epoch on YARN (7 rounds per epoch of a 2-layer model).
 */
final class StatusWriter implements AutoCloseable {
  private final FileSystem fs;
  private final Path stagingDir;
  private final long minGapMillis;
  private final Thread thread;
  private StatusFile.Status pending;
  private boolean closed;

  StatusWriter(FileSystem fs, Path stagingDir, long minGapMillis) {
    this.fs = fs;
    this.stagingDir = stagingDir;
    this.minGapMillis = minGapMillis;
    this.thread = new Thread(this::run, "yarn-gnn-status");
    thread.setDaemon(true);
    thread.start();
  }

  /** Records the status to write; returns at once. */
  synchronized void publish(float progress, String text) {
    pending = new StatusFile.Status(progress, text);
    notifyAll();
  }

  private synchronized StatusFile.Status next() throws InterruptedException {
    while (pending == null && !closed) {
      wait();
    }
    StatusFile.Status s = pending;
    pending = null;
    return s;
  }

  private void run() {
    try {
      for (StatusFile.Status s = next(); s != null; s = next()) {
        write(s);
        synchronized (this) {
          if (!closed) {
            wait(minGapMillis); // close() cuts the gap short
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void write(StatusFile.Status s) {
    try {
      StatusFile.write(fs, stagingDir, s.progress(), s.text());
    } catch (IOException e) {
      // Progress is informational; the job goes on without the text.
      System.err.println("yarn-gnn AM: could not write the status file: " + e.getMessage());
    }
  }

  /** Stops the thread and writes a status published since its last write, so the file ends with the latest. */
  @Override
  public void close() throws InterruptedException {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    thread.join(30_000);
    StatusFile.Status last;
    synchronized (this) {
      last = pending;
      pending = null;
    }
    if (last != null) {
      write(last);
    }
  }
}
