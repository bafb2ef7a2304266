package org.yarngnn.app.infer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.io.model.ModelFiles;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.compute.infer.RowNormalization;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.layer.Layer;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.NodeSink;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;

/**
 * Feature loading fused with the first layer (Deal): input normalisation is row-local, so it is done where a row
 * is read; with fusion the first layer's graph-independent products ({@link Layer#linear}) are computed there too,
 * so only those narrow rows travel to the node's owner and raw features are never kept whole. Serves both the
 * raw tables (a block of rows at a time, as read) and a pre-partitioned graph (its feature matrix at once).
 */
final class FeatureLoader {
  /** A worker's share of the node files, read: the blocks to route and what the driver needs to know. */
  record NodesRead(NodeTable table, List<NodeBlock> blocks, boolean fused, int rowWidth,
      PhaseResult.NodeCounts counts) {}

  private final Model model;
  private final Layer first;
  private final boolean fusion;

  FeatureLoader(Model model, Layer first, boolean fusion) {
    this.model = model;
    this.first = first;
    this.fusion = fusion;
  }

  /**
   * Whether rows of {@code width} features are fused: only when the first layer's products are narrower (a sage
   * layer's {@code [H W_self | H W_neigh]} is twice its output width).
   */
  boolean fuses(int width) {
    return fusion && first.linearWidth() < width;
  }

  /** Reads the node files {@code mine} selects, normalising (and with fusion, transforming) rows as they come. */
  NodesRead read(Configuration conf, InferOptions spec, IntPredicate mine)
      throws Exception {
    NodeTable table = NodeTable.open(conf, spec.nodes(),
        TableReadOptions.builder().format(spec.nodesFormat()).build());
    int width = table.featureWidth();
    ModelFiles.checkInputWidth(model, spec.model(), width, spec.nodes());
    boolean labelled = table.hasLabels() || table.hasSplits();
    boolean fused = fuses(width);
    boolean rowNormalize = "row".equals(model.spec().inputNormalize());
    long[] minMax = {Long.MAX_VALUE, Long.MIN_VALUE, 0};
    float[] scratch = new float[width];
    List<NodeBlock> blocks = new ArrayList<>();
    for (int f = 0; f < table.files().size(); f++) {
      if (!mine.test(f)) {
        continue;
      }
      NodeBlockBuilder b = new NodeBlockBuilder(f, width, labelled, nb -> blocks.add(fused ? fuse(nb) : nb));
      table.readFile(f, new NodeSink() {
        @Override
        public void node(long id, int label, byte split, float[] features, long row) {
          minMax[0] = Math.min(minMax[0], id);
          minMax[1] = Math.max(minMax[1], id);
          minMax[2]++;
          if (rowNormalize) {
            System.arraycopy(features, 0, scratch, 0, width);
            RowNormalization.divideBySum(scratch, 0, width);
            b.add(id, row, label, split, scratch);
          } else {
            b.add(id, row, label, split, features);
          }
        }
      });
      b.flush();
    }
    return new NodesRead(table, blocks, fused, fused ? first.linearWidth() : width,
        new PhaseResult.NodeCounts(minMax[2], minMax[0], minMax[1], width));
  }

  private NodeBlock fuse(NodeBlock raw) {
    DenseMatrix lin = linear(new DenseMatrix(raw.count(), raw.width(), raw.values()));
    return new NodeBlock(raw.file(), raw.ids(), raw.rows(), raw.labels(), raw.splits(), lin.cols(), lin.data());
  }

  private DenseMatrix linear(DenseMatrix in) {
    DenseMatrix lin = new DenseMatrix(in.rows(), first.linearWidth());
    RowRanges.parallel(in.rows(), 256, (from, to) -> first.linear(in, from, to, lin));
    return lin;
  }

  /**
   * A partition's whole feature matrix (consumed): normalised, and with fusion transformed by the first layer.
   * Fusion applies whatever the widths here, since the rows are already where they are used.
   */
  DenseMatrix load(DenseMatrix features) {
    RowNormalization.applyInput(model.spec().inputNormalize(), features);
    return fusion ? linear(features) : features;
  }
}
