package dev.reed.k8s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Dockerfile parsed into build stages of instructions: comments dropped, line continuations
 * joined, keywords upper-cased. No Docker engine runs here, so the images are checked from this.
 */
record Dockerfile(Path path, List<Stage> stages) {

  private static final Pattern ENV_PAIR = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(?:\"([^\"]*)\"|(\\S*))\\s*");

  record Instruction(String keyword, String args) {}

  record Stage(String from, String name, List<Instruction> instructions) {
    List<String> args(String keyword) {
      return instructions.stream().filter(i -> i.keyword().equals(keyword)).map(Instruction::args).toList();
    }

    /** The ENV instructions' variables, in KEY=VALUE form with optional double quotes (the form these Dockerfiles use). */
    Map<String, String> env() {
      Map<String, String> env = new LinkedHashMap<>();
      for (String args : args("ENV")) {
        Matcher m = ENV_PAIR.matcher(args);
        int at = 0;
        while (m.find() && m.start() == at) {
          env.put(m.group(1), m.group(2) != null ? m.group(2) : m.group(3));
          at = m.end();
        }
        if (at != args.length()) throw new IllegalArgumentException("ENV not in KEY=VALUE form: " + args);
      }
      return env;
    }
  }

  static Dockerfile parse(Path path) throws IOException {
    List<String> logical = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String raw : Files.readAllLines(path)) {
      String line = raw.strip();
      if (current.isEmpty() && (line.isEmpty() || line.startsWith("#"))) continue;
      if (!current.isEmpty() && line.startsWith("#")) continue;
      if (line.endsWith("\\")) {
        current.append(line, 0, line.length() - 1).append(' ');
      } else {
        current.append(line);
        logical.add(current.toString().strip());
        current.setLength(0);
      }
    }
    if (!current.isEmpty()) throw new IllegalArgumentException(path + ": dangling line continuation");

    List<Stage> stages = new ArrayList<>();
    List<Instruction> instructions = null;
    for (String line : logical) {
      String[] parts = line.split("\\s+", 2);
      String keyword = parts[0].toUpperCase(Locale.ROOT);
      String args = parts.length > 1 ? parts[1].strip() : "";
      if (keyword.equals("FROM")) {
        String[] from = args.split("\\s+");
        String name = from.length == 3 && from[1].equalsIgnoreCase("AS") ? from[2] : null;
        instructions = new ArrayList<>();
        stages.add(new Stage(from[0], name, instructions));
      } else if (instructions == null) {
        if (!keyword.equals("ARG")) throw new IllegalArgumentException(path + ": " + keyword + " before FROM");
      } else {
        instructions.add(new Instruction(keyword, args));
      }
    }
    return new Dockerfile(path, stages.stream()
        .map(s -> new Stage(s.from(), s.name(), List.copyOf(s.instructions()))).toList());
  }

  Stage runtime() {
    return stages.get(stages.size() - 1);
  }
}
