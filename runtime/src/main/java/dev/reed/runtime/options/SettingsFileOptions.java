package dev.reed.runtime.options;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --reports-config} and {@code --integrity-config}: the settings files of learning from
 * client reports and of the host integrity check (coordinator, eval). Each command reads them with
 * the coordinates module's one loader, {@code ModelFile.option}.
 */
public final class SettingsFileOptions {
  @Option(names = "--reports-config", paramLabel = "FILE",
      description = "how client reports are learned from: a properties file of ReportConfig's settings "
          + "(coordinator/config/reports.properties documents every one); keys left out keep their defaults "
          + "(default: the defaults)")
  Path reports;

  @Option(names = "--integrity-config", paramLabel = "FILE",
      description = "the host integrity check's tolerances: a properties file of IntegrityConfig's settings "
          + "(coordinator/config/integrity.properties documents every one); keys left out keep their defaults "
          + "(default: the defaults)")
  Path integrity;

  /** The report learning settings file, null when not given. */
  public Path reports() {
    return reports;
  }

  /** The integrity tolerances file, null when not given. */
  public Path integrity() {
    return integrity;
  }
}
