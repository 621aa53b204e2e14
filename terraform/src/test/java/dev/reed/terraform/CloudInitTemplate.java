package dev.reed.terraform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The module's cloud-config template. It is kept to plain {@code ${name}} interpolation (no
 * directives, no functions), which Terraform's templatefile renders exactly like {@link #render},
 * so the tests can inspect the user data a VM will really receive.
 */
record CloudInitTemplate(String text) {

  static final String PATH = "templates/cloud-init.yaml.tftpl";
  private static final Pattern INTERPOLATION = Pattern.compile("(?<!\\$)\\$\\{([^}]*)}");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern ARGUMENT = Pattern.compile("(?m)^\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*=(?!=)");

  static CloudInitTemplate read(Path moduleDir) throws IOException {
    CloudInitTemplate t = new CloudInitTemplate(Files.readString(moduleDir.resolve(PATH)));
    if (t.text.contains("%{")) throw new AssertionError(PATH + " uses a template directive; keep it to ${name}");
    Matcher m = INTERPOLATION.matcher(t.text);
    while (m.find()) {
      if (!IDENTIFIER.matcher(m.group(1)).matches()) {
        throw new AssertionError(PATH + " interpolates an expression, not a name: ${" + m.group(1) + "}");
      }
    }
    return t;
  }

  Set<String> variables() {
    Set<String> names = new TreeSet<>();
    Matcher m = INTERPOLATION.matcher(text);
    while (m.find()) names.add(m.group(1));
    return names;
  }

  String render(Map<String, String> values) {
    Matcher m = INTERPOLATION.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String v = values.get(m.group(1));
      if (v == null) throw new AssertionError("no value for ${" + m.group(1) + "}");
      m.appendReplacement(out, Matcher.quoteReplacement(v));
    }
    m.appendTail(out);
    return out.toString().replace("$${", "${");
  }

  /** The argument names of the object passed to templatefile(...) in an HCL expression. */
  static Set<String> argumentNames(String templatefileCall) {
    int open = templatefileCall.indexOf('{', templatefileCall.indexOf(".tftpl"));
    int close = templatefileCall.lastIndexOf('}', templatefileCall.lastIndexOf(')'));
    Set<String> names = new TreeSet<>();
    Matcher m = ARGUMENT.matcher(templatefileCall.substring(open + 1, close));
    while (m.find()) names.add(m.group(1));
    return names;
  }
}
