package dev.reed.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The page as the coordinator serves it from the classpath: every file it loads is in the jar, and
 * nothing is fetched from anywhere else at run time (the browser test exercises the behaviour).
 */
class PageFilesTest {
  private static final String ROOT = "dev/reed/web/";
  private static final List<String> FILES = List.of("index.html", "app.js", "api.js", "beacons.js", "plot.js", "style.css");

  @Test
  void everyFileThePageLoadsIsInTheJar() throws IOException {
    String html = read("index.html");
    List<String> referenced = new ArrayList<>();
    Matcher m = Pattern.compile("(?:src|href)=\"([^\"#]+)\"").matcher(html);
    while (m.find()) if (!m.group(1).startsWith("https://db-ip.com")) referenced.add(m.group(1));
    for (String js : List.of("app.js", "api.js", "beacons.js", "plot.js")) {
      Matcher imports = Pattern.compile("from '\\./([^']+)'").matcher(read(js));
      while (imports.find()) referenced.add(imports.group(1));
    }
    assertThat(referenced).contains("style.css", "app.js", "api.js", "beacons.js", "plot.js");
    for (String r : referenced) assertThat(getClass().getClassLoader().getResource(ROOT + r)).as(r).isNotNull();
  }

  @Test
  void nothingIsFetchedFromElsewhere() throws IOException {
    Pattern remote = Pattern.compile("(?:src|href)=\"(?:https?:)?//|from '(?:https?:)?//|import\\('(?:https?:)?//|url\\((?:'|\")?(?:https?:)?//"
        + "|@import");
    for (String f : FILES) {
      String text = read(f).replace("href=\"https://db-ip.com\"", "");   // an attribution link the user may follow, not a load
      assertThat(remote.matcher(text).find()).as("%s loads something from another origin", f).isFalse();
    }
  }

  @Test
  void thePageSaysItNeverContactsGameServersAndHasALiveStatus() throws IOException {
    String html = read("index.html");
    assertThat(html).contains("This page never contacts a game server.").contains("role=\"status\"").contains("aria-live");
  }

  private String read(String name) throws IOException {
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(ROOT + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
