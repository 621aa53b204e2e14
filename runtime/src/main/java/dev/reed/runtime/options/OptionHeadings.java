package dev.reed.runtime.options;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * A command's options by topic in its {@code --help}: one heading per section, the options under it
 * in the order given, each option under exactly one; {@code --help} and {@code --version} come
 * last, under "Help". Only the help changes: parsing, defaults and environment variables stay the
 * options' own (which picocli argument groups would change for a default provider's options). A
 * command implements {@link Sectioned}; {@code ./reed} installs the sections of every subcommand
 * that does, a command's own {@code main} with {@link #commandLine(Object)}.
 *
 * @param sections the headings, in the order --help prints them
 */
public record OptionHeadings(List<Section> sections) {

  /** A command whose --help lists its options under headings. */
  public interface Sectioned {
    OptionHeadings optionHeadings();
  }

  /**
   * One heading and its options, each by one of its names.
   *
   * @param heading the topic, e.g. "Kafka"
   * @param options the options under it, each by its longest name (e.g. {@code --kafka-config})
   */
  public record Section(String heading, List<String> options) {
    public Section {
      if (heading == null || heading.isBlank()) throw new IllegalArgumentException("a section needs a heading");
      options = List.copyOf(options);
      if (options.isEmpty()) throw new IllegalArgumentException(heading + ": no options");
    }
  }

  /** The heading of the standard --help and --version options, printed last. */
  public static final String HELP = "Help";
  /** The heading of options no heading lists (a mistake {@link #problems} reports). */
  public static final String OTHER = "Other";

  public OptionHeadings {
    sections = List.copyOf(sections);
    Set<String> seen = new LinkedHashSet<>();
    for (Section s : sections) {
      for (String o : s.options()) {
        if (!seen.add(o)) throw new IllegalArgumentException(o + " is under two headings");
      }
    }
  }

  /** A section: {@code heading} over {@code options}. */
  public static Section section(String heading, String... options) {
    return new Section(heading, List.of(options));
  }

  public static OptionHeadings of(Section... sections) {
    return new OptionHeadings(List.of(sections));
  }

  /** A command line for {@code command}, with its sections when it has any. */
  public static CommandLine commandLine(Object command) {
    CommandLine cl = new CommandLine(command);
    if (command instanceof Sectioned s) s.optionHeadings().install(cl);
    return cl;
  }

  /** Prints {@code cl}'s options under these headings in its --help (see {@link #problems}). */
  public void install(CommandLine cl) {
    cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING, help -> "");
    cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, this::render);
  }

  /**
   * What is wrong with these headings for {@code spec}: a shown option no heading lists (--help
   * prints it under {@link #OTHER}), or a listed name the command does not have (not printed).
   * Empty when every shown option is under exactly one heading.
   */
  public List<String> problems(CommandSpec spec) {
    List<String> problems = new ArrayList<>();
    for (OptionSpec o : unlisted(spec)) problems.add(spec.qualifiedName() + " " + o.longestName() + " has no heading");
    for (Section s : sections) {
      for (String name : s.options()) {
        if (spec.findOption(name) == null) problems.add(spec.qualifiedName() + ": " + s.heading() + " lists " + name + ", not an option");
      }
    }
    return problems;
  }

  private List<OptionSpec> unlisted(CommandSpec spec) {
    return spec.options().stream().filter(o -> !o.hidden() && !o.usageHelp() && !o.versionHelp() && heading(o) == null).toList();
  }

  /** The heading {@code option} is under (listed by any of its names), null when none. */
  public String heading(OptionSpec option) {
    for (Section s : sections) {
      for (String name : option.names()) {
        if (s.options().contains(name)) return s.heading();
      }
    }
    return null;
  }

  private String render(CommandLine.Help help) {
    CommandSpec spec = help.commandSpec();
    StringBuilder out = new StringBuilder();
    for (Section s : sections) {
      List<OptionSpec> options = s.options().stream().map(spec::findOption).filter(o -> o != null && !o.hidden()).toList();
      if (!options.isEmpty()) out.append(heading(help, s.heading(), options));
    }
    List<OptionSpec> other = unlisted(spec);
    if (!other.isEmpty()) out.append(heading(help, OTHER, other));
    List<OptionSpec> standard = spec.options().stream().filter(o -> o.usageHelp() || o.versionHelp()).toList();
    if (!standard.isEmpty()) out.append(heading(help, HELP, standard));
    return out.toString();
  }

  /** A heading and its options in the order given (not sorted), in the columns of the whole list. */
  private static String heading(CommandLine.Help help, String heading, List<OptionSpec> options) {
    return String.format("%n%s:%n", heading)
        + help.optionListExcludingGroups(options, help.createDefaultLayout(), null, help.parameterLabelRenderer());
  }
}
