package org.yarngnn.app.yarn;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes the AM's {@link StatusFile} off the driver's thread: {@link #publish} and {@link #epoch} only record the
 * latest status and the newest epochs; a daemon thread writes them, the latest state winning, at most once per
 * {@code minGapMillis}. Drivers report twice per round (before and after), and on HDFS one create-and-close of the
 * file takes 10 ms or, when the NameNode has not yet heard of the block, 400 ms more (the client's completeFile
 * back-off): written in line, that was most of a small training epoch on YARN (7 rounds per epoch of a 2-layer
 * model).
 */
final class StatusWriter implements AutoCloseable {
  private final FileSystem fs;
  private final Path stagingDir;
  private final long minGapMillis;
  private final Thread thread;
  private float progress;
  private String text = "";
  private final Deque<Map<String, Object>> epochs = new ArrayDeque<>();
  /** Whether something was recorded since the last write. */
  private boolean pending;
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
    this.progress = progress;
    this.text = text == null ? "" : text;
    changed();
  }

  /** Records an epoch's figures (the newest {@value StatusFile#MAX_EPOCHS} are written); returns at once. */
  synchronized void epoch(Map<String, Object> figures) {
    epochs.addLast(figures);
    if (epochs.size() > StatusFile.MAX_EPOCHS) {
      epochs.removeFirst();
    }
    changed();
  }

  private void changed() {
    pending = true;
    notifyAll();
  }

  /** What to write next, once something changed; null once closed with nothing left. */
  private synchronized StatusFile.Status next() throws InterruptedException {
    while (!pending && !closed) {
      wait();
    }
    return take();
  }

  private synchronized StatusFile.Status take() {
    if (!pending) {
      return null;
    }
    pending = false;
    return new StatusFile.Status(progress, text, List.copyOf(epochs));
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
      StatusFile.write(fs, stagingDir, s);
    } catch (IOException e) {
      // Progress is informational; the job goes on without the text.
      System.err.println("yarn-gnn AM: could not write the status file: " + e.getMessage());
    }
  }

  /** Stops the thread and writes what was recorded since its last write, so the file ends with the latest. */
  @Override
  public void close() throws InterruptedException {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    thread.join(30_000);
    StatusFile.Status last = take();
    if (last != null) {
      write(last);
    }
  }
}
