package org.yarngnn.app.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.compute.link.LinkLoss;
import org.yarngnn.compute.link.NegativeSampler;

class LinkOptionsTest {
  private static TrainOptions parse(String... extra) {
    List<String> a = new ArrayList<>(List.of("--local", "--edges", "/data/e.tsv", "--nodes", "/data/n.tsv",
        "--model-spec", "/data/spec.json", "--output", "/out/model"));
    a.addAll(List.of(extra));
    return TrainOptions.fromCommandLine(CommandLine.parse(TrainOptions.optionSpec(), a.toArray(new String[0]),
        new Configuration(false)));
  }

  @Test
  void defaultsAndRoundTripThroughTheJobConfiguration() {
    assertNull(parse().link(), "classification by default");
    assertEquals(new LinkOptions(0.05, 0.10, 1, NegativeSampler.Kind.UNIFORM, LinkLoss.Kind.BCE, 1.0, 100, null, null),
        parse("--task", "link").link());
    TrainOptions o = parse("--task", "link", "--link-split", "0.1, 0.2", "--negatives", "5", "--negative-sampler",
        "degree", "--loss", "softmax", "--temperature", "0.5", "--eval-negatives", "50");
    assertEquals(new LinkOptions(0.1, 0.2, 5, NegativeSampler.Kind.DEGREE, LinkLoss.Kind.SOFTMAX, 0.5, 50, null, null),
        o.link());
    assertEquals(o, TrainOptions.fromConfiguration(o.toConfiguration()));
    TrainOptions classify = parse();
    assertEquals(classify, TrainOptions.fromConfiguration(classify.toConfiguration()));
    assertEquals(null, classify.toConfiguration().get("yarngnn.task"), "a classification job.xml is unchanged");
    assertEquals(0, parse("--task", "link", "--link-split", "0,0").link().valFraction());
  }

  /** Each refused with exit 2's exception, naming the option. */
  @Test
  void badOptionsNameTheOption() {
    String[][] cases = {
        {"--task", "rank"}, {"--task"},
        {"--task", "link", "--link-split", "-0.1,0.1"}, {"--link-split"},
        {"--task", "link", "--link-split", "0.5,0.5"}, {"--link-split"},
        {"--task", "link", "--link-split", "0.1"}, {"--link-split"},
        {"--task", "link", "--link-split", "x,0.1"}, {"--link-split"},
        {"--task", "link", "--negatives", "0"}, {"--negatives"},
        {"--task", "link", "--negatives", "99999999999"}, {"--negatives"},
        {"--task", "link", "--negative-sampler", "popular"}, {"--negative-sampler"},
        {"--task", "link", "--loss", "hinge"}, {"--loss"},
        {"--task", "link", "--temperature", "0"}, {"--temperature"},
        {"--task", "link", "--temperature", "NaN"}, {"--temperature"},
        {"--task", "link", "--eval-negatives", "0"}, {"--eval-negatives"},
        {"--negatives", "3"}, {"--negatives"},
        {"--task", "classify", "--loss", "bpr"}, {"--loss"},
    };
    for (int i = 0; i < cases.length; i += 2) {
      String[] args = cases[i];
      UsageException e = assertThrows(UsageException.class, () -> parse(args), String.join(" ", args));
      assertTrue(e.getMessage().contains(cases[i + 1][0]), String.join(" ", args) + ": " + e.getMessage());
    }
  }
}
