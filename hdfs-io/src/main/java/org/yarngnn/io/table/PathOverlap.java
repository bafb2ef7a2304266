package org.yarngnn.io.table;

import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Outputs never touch inputs: refuses an output path that is, contains, or lies inside one of a job's inputs,
 * before anything runs (so {@code --overwrite} can never delete an input). Paths are compared fully qualified
 * ({@link FileSystem#makeQualified}: scheme, authority and absolute path, {@code .} and {@code ..} resolved);
 * paths on different FileSystems (another scheme or authority) never overlap. Symbolic links are not followed.
 */
public final class PathOverlap {
  private PathOverlap() {}

  /**
   * Throws {@link InputException} when {@code output} (named by {@code outputOption}, e.g. {@code --output})
   * overlaps an input. {@code optionAndPath} lists the inputs as pairs: an option name ({@code --nodes}) and its
   * path (a {@link String} or a {@link Path}); a null or empty path (an option not given) is skipped.
   */
  public static void check(Configuration conf, String outputOption, Object output, Object... optionAndPath) {
    if (optionAndPath.length % 2 != 0) {
      throw new IllegalArgumentException("inputs come as option, path pairs");
    }
    Path out = toPath(output);
    if (out == null) {
      return;
    }
    Path qOut = qualify(conf, out);
    if (qOut == null) {
      return;
    }
    for (int i = 0; i < optionAndPath.length; i += 2) {
      Path in = toPath(optionAndPath[i + 1]);
      if (in == null) {
        continue;
      }
      Path qIn = qualify(conf, in);
      String relation = qIn == null ? null : relation(qOut, qIn);
      if (relation != null) {
        throw new InputException(outputOption + " " + output + " " + relation + " " + optionAndPath[i] + " "
            + optionAndPath[i + 1] + " (an output must not be, contain or lie inside an input: choose another " + outputOption + ")");
      }
    }
  }

  /**
   * Whether {@code path} is {@code dir} or lies inside it, both qualified on their FileSystems (false when either
   * cannot be qualified: the FileSystem fails later with its own message).
   */
  public static boolean isOrLiesInside(Configuration conf, Object path, Object dir) {
    Path p = toPath(path);
    Path d = toPath(dir);
    if (p == null || d == null) {
      return false;
    }
    Path qp = qualify(conf, p);
    Path qd = qualify(conf, d);
    String r = qp == null || qd == null ? null : relation(qp, qd);
    return "is".equals(r) || "lies inside".equals(r);
  }

  /**
   * How qualified {@code out} overlaps qualified {@code in}: {@code "is"}, {@code "contains"},
   * {@code "lies inside"}, or null when they are disjoint.
   */
  static String relation(Path out, Path in) {
    URI o = out.toUri();
    URI i = in.toUri();
    if (!Objects.equals(o.getScheme(), i.getScheme()) || !Objects.equals(o.getAuthority(), i.getAuthority())) {
      return null;
    }
    String op = strip(o.getPath());
    String ip = strip(i.getPath());
    if (op.equals(ip)) {
      return "is";
    }
    if (isUnder(ip, op)) {
      return "contains";
    }
    if (isUnder(op, ip)) {
      return "lies inside";
    }
    return null;
  }

  private static boolean isUnder(String child, String parent) {
    return parent.equals("/") ? child.startsWith("/") : child.startsWith(parent + "/");
  }

  private static String strip(String p) {
    String s = p.isEmpty() ? "/" : p;
    while (s.length() > 1 && s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }

  private static Path toPath(Object p) {
    if (p == null) {
      return null;
    }
    if (p instanceof Path path) {
      return path;
    }
    String s = p.toString();
    return s.isEmpty() ? null : new Path(s);
  }

  /** Null when no FileSystem serves {@code p}: opening it reports that, with the option's own message. */
  private static Path qualify(Configuration conf, Path p) {
    try {
      return p.getFileSystem(conf).makeQualified(p);
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }
}
