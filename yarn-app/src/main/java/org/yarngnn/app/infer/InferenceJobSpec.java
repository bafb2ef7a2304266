package org.yarngnn.app.infer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.partition.MissingFeatures;

/**
 * Everything a graph worker needs to know about a distributed inference job. The driver sends it to every
 * worker after registration, so container command lines carry only the driver's address and the worker index.
 *
 * @param edges edges table (null with {@code graph})
 * @param nodes nodes table (null with {@code graph})
 * @param graph a pre-partitioned graph directory written by {@code partition}, or null
 * @param workDir the output commit's work directory: each worker writes its part file there
 * @param fusion transform feature rows with the first layer where they are read, shipping only the narrow rows
 * @param pipelining chunked, overlapped halo exchange; off: one block per peer, then aggregate
 * @param chunkRows rows per halo chunk
 * @param ownership auto, range or hash (see {@code Ownership.Kind})
 * @param haltAt fault injection for tests, {@code WORKER@COMMAND}: that worker's JVM halts (status 137, as if
 *     killed) when the command arrives; null in real jobs
 */
public record InferenceJobSpec(
    String edges,
    String nodes,
    TableFormat edgesFormat,
    TableFormat nodesFormat,
    String graph,
    String model,
    String workDir,
    TableFormat outputFormat,
    boolean undirected,
    MissingFeatures missingFeatures,
    long seed,
    int workers,
    int threads,
    boolean fusion,
    boolean pipelining,
    int chunkRows,
    String ownership,
    String haltAt) {

  public byte[] toBytes() {
    Properties p = new Properties();
    put(p, "edges", edges);
    put(p, "nodes", nodes);
    put(p, "edgesFormat", edgesFormat == null ? null : edgesFormat.name());
    put(p, "nodesFormat", nodesFormat == null ? null : nodesFormat.name());
    put(p, "graph", graph);
    put(p, "model", model);
    put(p, "workDir", workDir);
    put(p, "outputFormat", outputFormat.name());
    put(p, "undirected", Boolean.toString(undirected));
    put(p, "missingFeatures", missingFeatures.name());
    put(p, "seed", Long.toString(seed));
    put(p, "workers", Integer.toString(workers));
    put(p, "threads", Integer.toString(threads));
    put(p, "fusion", Boolean.toString(fusion));
    put(p, "pipelining", Boolean.toString(pipelining));
    put(p, "chunkRows", Integer.toString(chunkRows));
    put(p, "ownership", ownership);
    put(p, "haltAt", haltAt);
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      p.store(out, null);
      return out.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public static InferenceJobSpec fromBytes(byte[] bytes) {
    Properties p = new Properties();
    try {
      p.load(new StringReader(new String(bytes, StandardCharsets.ISO_8859_1)));
    } catch (IOException e) {
      throw new IllegalArgumentException("bad job spec", e);
    }
    return new InferenceJobSpec(
        p.getProperty("edges"),
        p.getProperty("nodes"),
        format(p.getProperty("edgesFormat")),
        format(p.getProperty("nodesFormat")),
        p.getProperty("graph"),
        p.getProperty("model"),
        p.getProperty("workDir"),
        TableFormat.valueOf(p.getProperty("outputFormat")),
        Boolean.parseBoolean(p.getProperty("undirected")),
        MissingFeatures.valueOf(p.getProperty("missingFeatures")),
        Long.parseLong(p.getProperty("seed")),
        Integer.parseInt(p.getProperty("workers")),
        Integer.parseInt(p.getProperty("threads")),
        Boolean.parseBoolean(p.getProperty("fusion")),
        Boolean.parseBoolean(p.getProperty("pipelining")),
        Integer.parseInt(p.getProperty("chunkRows")),
        p.getProperty("ownership", "auto"),
        p.getProperty("haltAt"));
  }

  private static void put(Properties p, String key, String value) {
    if (value != null) {
      p.setProperty(key, value);
    }
  }

  private static TableFormat format(String s) {
    return s == null ? null : TableFormat.valueOf(s);
  }
}
