package org.yarngnn.app;

import java.io.PrintStream;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;

/** One CLI command: its options and its body. The body returns the exit status. */
public interface Command {
  OptionSpec options();

  int run(CommandLine cl, PrintStream out) throws Exception;

  /** The arguments as options: a command taking a positional argument ({@code status APP_ID}) names it here. */
  default String[] asOptions(String[] args) {
    return args;
  }
}
