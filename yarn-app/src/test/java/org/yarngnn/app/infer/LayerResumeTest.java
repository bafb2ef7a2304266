package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.graphworker.ConstructionRounds;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.partition.Ownership;

class LayerResumeTest {
  private static final int WORKERS = 3;
  /** What three workers' read-nodes answer for the dense ids 0..99 (the driver then chooses ranges). */
  private static final List<PhaseResult> COUNTS = List.of(new PhaseResult.NodeCounts(40, 0, 99, 8),
      new PhaseResult.NodeCounts(30, 1, 98, 8), new PhaseResult.NodeCounts(30, 2, 97, 8));

  private static final InferOptions SPEC = InferOptions.fromCommandLine(CommandLine.parse(InferOptions.optionSpec(),
      new String[] {"--edges", "e.tsv", "--nodes", "n.tsv", "--model", "m", "--output", "o", "--workers", "3",
          "--local"}, new Configuration(false)));

  /** The driver's own choice. */
  private static Ownership ownershipOf(List<PhaseResult> counts) {
    return ConstructionRounds.ownership(SPEC.get(GraphJobOptions.OWNERSHIP), WORKERS, counts);
  }

  /** With checkpoints ({@code --checkpoint layers}), the graph built from the tables. */
  private static LayerResume resume() {
    return new LayerResume(2, LayerResumeTest::ownershipOf, true, true);
  }

  private static LayerResume recomputing(boolean fromTables) {
    return new LayerResume(2, LayerResumeTest::ownershipOf, false, fromTables);
  }

  @Test
  void aLossDuringConstructionStartsItOverOnEveryWorker() {
    LayerResume r = resume();
    PhaseCommand read = new PhaseCommand(Phase.READ_NODES);
    r.sent(read);
    assertEquals(List.of(LayerResume.rejoin(LayerResume.BEFORE_CONSTRUCTION, 1)), r.steps(read, 1));
    PhaseCommand route = new PhaseCommand(Phase.ROUTE_NODES, 0, ownershipOf(COUNTS));
    r.sent(route);
    assertEquals(List.of(LayerResume.rejoin(LayerResume.BEFORE_CONSTRUCTION, 2), read), r.steps(route, 2));
    PhaseCommand edges = new PhaseCommand(Phase.BUILD_EDGES);
    r.sent(edges);
    // The route-nodes command the driver sent is sent again: the same ownership, whatever read-nodes answers.
    assertEquals(List.of(LayerResume.rejoin(LayerResume.BEFORE_CONSTRUCTION, 3), read, route), r.steps(edges, 3));
  }

  @Test
  void edgesWithoutARouteNodesCommandCannotResume() {
    assertNull(resume().steps(new PhaseCommand(Phase.BUILD_EDGES), 1));
  }

  @Test
  void connectingIsNotResumableAndTheOtherPointsAreAsBefore() {
    LayerResume r = resume();
    assertNull(r.steps(new PhaseCommand(Phase.JOB), 1));
    assertEquals(List.of(LayerResume.rejoin(LayerResume.AFTER_JOB, 1)),
        r.steps(new PhaseCommand(Phase.LOAD_PARTITION), 1));
    assertEquals(List.of(LayerResume.rejoin(LayerResume.BEFORE_PLAN, 1)), r.steps(new PhaseCommand(Phase.PLAN), 1));
    assertEquals(List.of(LayerResume.rejoin(LayerResume.atLayer(1), 4)),
        r.steps(new PhaseCommand(Phase.LAYER, 1, null), 4));
    assertEquals(List.of(LayerResume.rejoin(LayerResume.atLayer(1), 2), new PhaseCommand(Phase.LAYER, 1, null)),
        r.steps(new PhaseCommand(Phase.WRITE), 2));
    assertEquals(1, LayerResume.layerOf(LayerResume.atLayer(1)));
    assertTrue(LayerResume.atLayer(0) > LayerResume.BEFORE_PLAN && LayerResume.BEFORE_PLAN
        > LayerResume.BEFORE_CONSTRUCTION && LayerResume.BEFORE_CONSTRUCTION > LayerResume.AFTER_JOB);
    assertThrows(IllegalArgumentException.class, () -> LayerResume.layerOf(LayerResume.BEFORE_PLAN));
  }

  @Test
  void withoutCheckpointsALossAfterConstructionRecomputesEveryPhaseBeforeIt() {
    LayerResume r = recomputing(true);
    PhaseCommand read = new PhaseCommand(Phase.READ_NODES);
    PhaseCommand route = new PhaseCommand(Phase.ROUTE_NODES, 0, ownershipOf(COUNTS));
    PhaseCommand edges = new PhaseCommand(Phase.BUILD_EDGES);
    PhaseCommand plan = new PhaseCommand(Phase.PLAN);
    PhaseCommand layer0 = new PhaseCommand(Phase.LAYER, 0, null);
    PhaseCommand layer1 = new PhaseCommand(Phase.LAYER, 1, null);
    assertNull(r.steps(plan, 1), "no route-nodes command to repeat yet");
    r.sent(read);
    r.sent(route);
    PhaseCommand rejoin = LayerResume.rejoin(LayerResume.BEFORE_CONSTRUCTION, 5);
    assertEquals(List.of(rejoin, read, route, edges), r.steps(plan, 5));
    assertEquals(List.of(rejoin, read, route, edges, plan), r.steps(layer0, 5));
    assertEquals(List.of(rejoin, read, route, edges, plan, layer0), r.steps(layer1, 5));
    // The last layer's output is what the write writes: both layers again.
    assertEquals(List.of(rejoin, read, route, edges, plan, layer0, layer1), r.steps(new PhaseCommand(Phase.WRITE), 5));
    // Construction itself starts over as with checkpoints.
    assertEquals(List.of(rejoin, read, route), r.steps(edges, 5));
  }

  @Test
  void withoutCheckpointsAPartitionedGraphIsLoadedAgain() {
    LayerResume r = recomputing(false);
    PhaseCommand rejoin = LayerResume.rejoin(LayerResume.BEFORE_CONSTRUCTION, 2);
    PhaseCommand load = new PhaseCommand(Phase.LOAD_PARTITION);
    assertEquals(List.of(rejoin, load, new PhaseCommand(Phase.PLAN), new PhaseCommand(Phase.LAYER, 0, null)),
        r.steps(new PhaseCommand(Phase.LAYER, 1, null), 2));
    assertEquals(List.of(rejoin, load), r.steps(new PhaseCommand(Phase.PLAN), 2));
  }

  @Test
  void readNodesRunAgainMustComeToTheSameOwnership() {
    LayerResume r = resume();
    r.sent(new PhaseCommand(Phase.ROUTE_NODES, 0, ownershipOf(COUNTS)));
    // The same tables read again (in whatever order the workers answer): the same ownership.
    r.caughtUp(new PhaseCommand(Phase.READ_NODES), List.of(COUNTS.get(2), COUNTS.get(0), COUNTS.get(1)));
    // A node added meanwhile: ids 0..100 are still dense, but the ranges are not those the partitions were cut by.
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> r.caughtUp(
        new PhaseCommand(Phase.READ_NODES), List.of(new PhaseResult.NodeCounts(41, 0, 100, 8), COUNTS.get(1),
            COUNTS.get(2))));
    assertTrue(e.getMessage().contains("the node tables changed"), e.getMessage());
  }
}
