package dev.reed.cli.browse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void nestedObjectsArraysAndEscapes() {
    Json j = new Json().open().field("method", "reed").field("probes", 54).field("seconds", 0.41234)
        .field("nan", Double.NaN).field("ok", true);
    j.array("servers");
    j.open().field("name", "^1Quote\" back\\slash\nnew\u0001").close();
    j.open().field("name", "b").close();
    j.closeArray().object("traditional").field("probes", 1).array("empty").closeArray().close();
    j.array("numbers").value(1).value(2.5).closeArray();
    assertThat(j.close().toString()).isEqualTo(
        "{\"method\":\"reed\",\"probes\":54,\"seconds\":0.412,\"nan\":null,\"ok\":true,"
            + "\"servers\":[{\"name\":\"^1Quote\\\" back\\\\slash\\nnew\\u0001\"},{\"name\":\"b\"}],"
            + "\"traditional\":{\"probes\":1,\"empty\":[]},\"numbers\":[1.0,2.5]}");
  }
}
