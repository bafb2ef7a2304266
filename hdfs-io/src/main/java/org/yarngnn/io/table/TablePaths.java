package org.yarngnn.io.table;

import java.util.ArrayList;
import java.util.List;

/** A table argument as FileInputFormat takes it: a comma-separated list of paths and globs. */
public final class TablePaths {
  private TablePaths() {
  }

  /** Splits at commas outside braces (a glob's {@code {a,b}} stays whole); blank parts are dropped. */
  public static List<String> split(String table) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i <= table.length(); i++) {
      char c = i < table.length() ? table.charAt(i) : ',';
      if (c == '{') {
        depth++;
      } else if (c == '}' && depth > 0) {
        depth--;
      } else if (c == ',' && depth == 0) {
        String p = table.substring(start, i).trim();
        if (!p.isEmpty()) {
          out.add(p);
        }
        start = i + 1;
      }
    }
    return out;
  }
}
