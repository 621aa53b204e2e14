package dev.reed.terraform;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Terraform module (a directory of .tf files) as hcl2json sees it: variables, locals, outputs,
 * module calls, resources and data sources, plus the references its expressions make. Expressions
 * arrive as strings ("${var.x}"), so references are found by scanning them.
 */
record TerraformConfig(Path dir, Map<String, JsonNode> variables, Map<String, JsonNode> locals,
    Map<String, JsonNode> outputs, Map<String, JsonNode> modules, Map<String, JsonNode> resources,
    List<String> expressions) {

  private static final Pattern VAR = Pattern.compile("(?<![\\w.])var\\.([A-Za-z_][\\w-]*)");
  private static final Pattern LOCAL = Pattern.compile("(?<![\\w.])local\\.([A-Za-z_][\\w-]*)");
  private static final Pattern MODULE_OUTPUT = Pattern.compile("(?<![\\w.])module\\.([A-Za-z_][\\w-]*)\\.([A-Za-z_][\\w-]*)");

  static TerraformConfig of(Path dir, List<JsonNode> files) {
    Map<String, JsonNode> variables = new LinkedHashMap<>();
    Map<String, JsonNode> locals = new LinkedHashMap<>();
    Map<String, JsonNode> outputs = new LinkedHashMap<>();
    Map<String, JsonNode> modules = new LinkedHashMap<>();
    Map<String, JsonNode> resources = new LinkedHashMap<>();
    List<String> expressions = new ArrayList<>();
    for (JsonNode file : files) {
      blocks(file.get("variable"), variables, dir);
      blocks(file.get("output"), outputs, dir);
      blocks(file.get("module"), modules, dir);
      for (String kind : List.of("resource", "data")) {
        JsonNode byType = file.get(kind);
        if (byType == null) continue;
        byType.fields().forEachRemaining(t -> {
          Map<String, JsonNode> named = new LinkedHashMap<>();
          blocks(t.getValue(), named, dir);
          named.forEach((n, body) -> resources.put((kind.equals("data") ? "data." : "") + t.getKey() + "." + n, body));
        });
      }
      JsonNode localBlocks = file.get("locals");
      if (localBlocks != null) {
        for (JsonNode block : localBlocks) {
          block.fields().forEachRemaining(e -> {
            if (locals.put(e.getKey(), e.getValue()) != null) throw new AssertionError(dir + ": local." + e.getKey() + " declared twice");
          });
        }
      }
      collectExpressions(file, expressions);
    }
    return new TerraformConfig(dir, variables, locals, outputs, modules, resources, List.copyOf(expressions));
  }

  Set<String> referenced(Pattern pattern) {
    Set<String> names = new TreeSet<>();
    for (String e : expressions) {
      Matcher m = pattern.matcher(e);
      while (m.find()) names.add(m.group(1));
    }
    return names;
  }

  Set<String> variablesUsed() {
    return referenced(VAR);
  }

  Set<String> localsUsed() {
    return referenced(LOCAL);
  }

  /** "module.output" pairs referenced. */
  Set<String> moduleOutputsUsed() {
    Set<String> pairs = new TreeSet<>();
    for (String e : expressions) {
      Matcher m = MODULE_OUTPUT.matcher(e);
      while (m.find()) pairs.add(m.group(1) + "." + m.group(2));
    }
    return pairs;
  }

  boolean required(String variable) {
    return !variables.get(variable).has("default");
  }

  private static void blocks(JsonNode byName, Map<String, JsonNode> into, Path dir) {
    if (byName == null) return;
    byName.fields().forEachRemaining(e -> {
      if (e.getValue().size() != 1) throw new AssertionError(dir + ": " + e.getKey() + " declared " + e.getValue().size() + " times");
      if (into.put(e.getKey(), e.getValue().get(0)) != null) throw new AssertionError(dir + ": " + e.getKey() + " declared twice");
    });
  }

  /** Every string in the JSON except human-readable descriptions. */
  private static void collectExpressions(JsonNode node, List<String> out) {
    if (node.isTextual()) {
      out.add(node.asText());
    } else if (node.isArray()) {
      node.forEach(n -> collectExpressions(n, out));
    } else if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getKey().equals("description")) collectExpressions(e.getValue(), out);
      }
    }
  }
}
