package dev.reed.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Terraform checked without Terraform: every .tf parses (hcl2json), and the cross-references
 * `terraform validate` would catch hold: variables used are declared (and declared ones used),
 * module inputs exist and required ones are given, module outputs referenced exist, templates and
 * files exist and get exactly the variables they use, nothing secret has a default, everything is
 * documented; and the global example places 15 agents, 5 per continent, as the paper did.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("integration")
class TerraformModulesTest {

  static final Path ROOT = Path.of(System.getProperty("reed.terraform.dir", ".")).toAbsolutePath().normalize();
  static final Path MODULE = ROOT.resolve("modules/landmark-agent");
  static final Path EXAMPLE = ROOT.resolve("examples/global");

  private Map<Path, Hcl2Json.Parsed> parsed;
  private Map<Path, TerraformConfig> configs;

  @BeforeAll
  void parseEverything() throws Exception {
    Hcl2Json hcl = Hcl2Json.require();
    List<Path> files = new ArrayList<>(terraformFiles());
    files.add(ROOT.resolve("src/test/resources/invalid/unclosed-block.tf"));
    parsed = hcl.parse(files);
    configs = new LinkedHashMap<>();
    for (Path dir : List.of(MODULE, EXAMPLE)) {
      List<JsonNode> jsons = parsed.values().stream()
          .filter(p -> p.file().getParent().equals(dir) && p.file().toString().endsWith(".tf"))
          .map(Hcl2Json.Parsed::json).toList();
      configs.put(dir, TerraformConfig.of(dir, jsons));
    }
  }

  @Test
  void everyTerraformFileParses() throws IOException {
    List<Path> files = terraformFiles();
    assertThat(files).hasSizeGreaterThanOrEqualTo(10);
    for (Path f : files) {
      assertThat(parsed.get(f).error()).as("%s parses", ROOT.relativize(f)).isNull();
    }
  }

  @Test
  void aSyntaxErrorIsReportedWithItsPosition() {
    Hcl2Json.Parsed broken = parsed.get(ROOT.resolve("src/test/resources/invalid/unclosed-block.tf"));
    assertThat(broken.ok()).isFalse();
    assertThat(broken.error()).contains("unclosed-block.tf:");
  }

  @Test
  void everyVariableUsedIsDeclaredAndEveryDeclaredOneIsUsed() {
    for (TerraformConfig c : configs.values()) {
      assertThat(c.variables().keySet()).as("%s declares what it uses", c.dir()).containsAll(c.variablesUsed());
      assertThat(c.variablesUsed()).as("%s uses what it declares", c.dir()).containsAll(c.variables().keySet());
      assertThat(c.locals().keySet()).as("%s locals", c.dir()).containsAll(c.localsUsed());
    }
  }

  @Test
  void moduleCallsPassOnlyInputsTheModuleHasAndEveryRequiredOne() {
    Set<String> meta = Set.of("source", "version", "providers", "count", "for_each", "depends_on");
    int calls = 0;
    for (TerraformConfig caller : configs.values()) {
      for (Map.Entry<String, JsonNode> call : caller.modules().entrySet()) {
        Path target = caller.dir().resolve(call.getValue().get("source").asText()).normalize();
        TerraformConfig module = configs.get(target);
        assertThat(module).as("module %s source %s is a module of this repository", call.getKey(), target).isNotNull();
        Set<String> inputs = new TreeSet<>();
        call.getValue().fieldNames().forEachRemaining(inputs::add);
        inputs.removeAll(meta);
        assertThat(module.variables().keySet()).as("inputs of module %s", call.getKey()).containsAll(inputs);
        for (String v : module.variables().keySet()) {
          if (module.required(v)) assertThat(inputs).as("required input %s of module %s", v, call.getKey()).contains(v);
        }
        for (String used : caller.moduleOutputsUsed()) {
          if (used.startsWith(call.getKey() + ".")) {
            assertThat(module.outputs()).as("output %s", used).containsKey(used.substring(call.getKey().length() + 1));
          }
        }
        calls++;
      }
    }
    assertThat(calls).as("module calls checked").isGreaterThanOrEqualTo(1);
  }

  @Test
  void noSecretHasADefaultAndSecretsAreOnlyReferenced() {
    Pattern secretName = Pattern.compile("password|secret|token|private_key|api_key");
    Pattern reference = Pattern.compile(".*_(arn|id|ref|name)$");
    for (TerraformConfig c : configs.values()) {
      for (Map.Entry<String, JsonNode> v : c.variables().entrySet()) {
        boolean sensitive = v.getValue().path("sensitive").asBoolean(false);
        String name = v.getKey();
        if (sensitive) {
          assertThat(v.getValue().has("default")).as("%s: sensitive variable %s has no default", c.dir(), name).isFalse();
        }
        if (secretName.matcher(name).find() && !reference.matcher(name).matches()) {
          assertThat(sensitive).as("%s: %s holds a secret: mark it sensitive", c.dir(), name).isTrue();
          assertThat(v.getValue().has("default")).as("%s: secret %s has no default", c.dir(), name).isFalse();
        }
        if (secretName.matcher(name).find() && v.getValue().has("default")) {
          assertThat(v.getValue().get("default").isNull()).as("%s: %s defaults to nothing", c.dir(), name).isTrue();
        }
      }
    }
  }

  @Test
  void everyVariableAndOutputIsDocumentedAndTyped() {
    for (TerraformConfig c : configs.values()) {
      c.variables().forEach((name, body) -> {
        assertThat(body.path("description").asText()).as("%s variable %s description", c.dir(), name).isNotBlank();
        assertThat(body.has("type")).as("%s variable %s type", c.dir(), name).isTrue();
      });
      assertThat(c.outputs()).as("%s outputs", c.dir()).isNotEmpty();
      c.outputs().forEach((name, body) -> {
        assertThat(body.path("description").asText()).as("%s output %s description", c.dir(), name).isNotBlank();
        assertThat(body.has("value")).isTrue();
      });
    }
    assertThat(configs.get(MODULE).outputs()).containsKeys("agents", "beacon_addresses");
    assertThat(configs.get(EXAMPLE).outputs()).containsKeys("agents", "beacon_addresses");
  }

  @Test
  void templatesAndFilesExistAndTemplatesGetExactlyTheVariablesTheyUse() throws IOException {
    TerraformConfig module = configs.get(MODULE);
    Pattern fileCall = Pattern.compile("(?:file|templatefile)\\(\"\\$\\{path\\.module}/([^\"]+)\"");
    int found = 0;
    for (String e : module.expressions()) {
      Matcher m = fileCall.matcher(e);
      while (m.find()) {
        assertThat(MODULE.resolve(m.group(1))).as("file %s", m.group(1)).isRegularFile();
        found++;
      }
    }
    assertThat(found).isGreaterThanOrEqualTo(3);

    String call = module.expressions().stream().filter(e -> e.contains("templatefile(")).findFirst().orElseThrow();
    Set<String> passed = CloudInitTemplate.argumentNames(call);
    Set<String> used = CloudInitTemplate.read(MODULE).variables();
    assertThat(passed).as("templatefile arguments = variables the template uses").isEqualTo(used);
  }

  @Test
  void firewallsOpenTheBeaconAndLetProbesOut() {
    Map<String, JsonNode> r = configs.get(MODULE).resources();
    JsonNode beacon = r.get("aws_vpc_security_group_ingress_rule.beacon");
    assertThat(beacon.get("ip_protocol").asText()).isEqualTo("udp");
    assertThat(beacon.get("from_port").asText()).isEqualTo("${var.beacon_port}");
    assertThat(beacon.get("to_port").asText()).isEqualTo("${var.beacon_port}");
    // the WebSocket beacon for web pages: TCP, on both clouds
    JsonNode wsBeacon = r.get("aws_vpc_security_group_ingress_rule.ws_beacon");
    assertThat(wsBeacon.get("ip_protocol").asText()).isEqualTo("tcp");
    assertThat(wsBeacon.get("from_port").asText()).isEqualTo("${var.ws_beacon_port}");
    assertThat(wsBeacon.get("to_port").asText()).isEqualTo("${var.ws_beacon_port}");
    assertThat(wsBeacon.toString()).contains("var.ws_beacon_allowed_cidrs");
    JsonNode gcpWsBeacon = r.get("google_compute_firewall.ws_beacon");
    assertThat(gcpWsBeacon.get("direction").asText()).isEqualTo("INGRESS");
    assertThat(gcpWsBeacon.get("allow").get(0).get("protocol").asText()).isEqualTo("tcp");
    assertThat(gcpWsBeacon.get("allow").get(0).get("ports").get(0).asText()).contains("var.ws_beacon_port");
    assertThat(gcpWsBeacon.get("source_ranges").asText()).contains("var.ws_beacon_allowed_cidrs");
    JsonNode udpOut = r.get("aws_vpc_security_group_egress_rule.udp");
    assertThat(udpOut.get("ip_protocol").asText()).isEqualTo("udp");
    assertThat(udpOut.get("from_port").asInt()).isZero();
    assertThat(udpOut.get("to_port").asInt()).isEqualTo(65535);
    JsonNode gcpBeacon = r.get("google_compute_firewall.beacon");
    assertThat(gcpBeacon.get("direction").asText()).isEqualTo("INGRESS");
    assertThat(gcpBeacon.get("allow").get(0).get("protocol").asText()).isEqualTo("udp");
    assertThat(gcpBeacon.get("allow").get(0).get("ports").get(0).asText()).contains("var.beacon_port");
    JsonNode gcpOut = r.get("google_compute_firewall.egress");
    assertThat(gcpOut.get("direction").asText()).isEqualTo("EGRESS");
    assertThat(gcpOut.get("allow").findValuesAsText("protocol")).contains("udp");
    // secrets: only a reference, and each cloud's identity may read exactly that secret
    assertThat(r.get("data.aws_iam_policy_document.read_kafka_secret").toString()).contains("var.kafka_password_secret_arn");
    assertThat(r.get("google_secret_manager_secret_iam_member.read_kafka_secret").get("secret_id").asText())
        .contains("var.kafka_password_secret_id");
    // no SSH: AWS has no key pair, GCP blocks project keys and uses OS Login
    assertThat(r.get("aws_instance.agent").has("key_name")).isFalse();
    assertThat(r.get("google_compute_instance.agent").get("metadata").get("block-project-ssh-keys").asText()).isEqualTo("TRUE");
    assertThat(r.get("aws_instance.agent").get("metadata_options").get(0).get("http_tokens").asText()).isEqualTo("required");
  }

  @Test
  void agentPortDefaultsMatchTheContainerImage() throws IOException {
    Map<String, JsonNode> v = configs.get(MODULE).variables();
    String dockerfile = Files.readString(ROOT.resolve("../docker/landmark-agent.Dockerfile"));
    assertThat(dockerfile)
        .contains("REED_AGENT_BEACON=0.0.0.0:" + v.get("beacon_port").get("default").asInt())
        .contains("REED_AGENT_METRICS_PORT=" + v.get("metrics_port").get("default").asInt())
        .contains("REED_AGENT_WS_BEACON=0.0.0.0:" + v.get("ws_beacon_port").get("default").asInt())
        .contains("EXPOSE " + v.get("beacon_port").get("default").asInt() + "/udp " + v.get("metrics_port").get("default").asInt() + "/tcp "
            + v.get("ws_beacon_port").get("default").asInt() + "/tcp");
  }

  /** One heap for the agent however it runs, the one its README measured. */
  @Test
  void agentVmsRunTheContainerImagesMeasuredHeap() throws IOException {
    Pattern options = Pattern.compile("JDK_JAVA_OPTIONS=\"([^\"]+)\"");
    String unit = Files.readString(ROOT.resolve("modules/landmark-agent/templates/reed-agent.service"));
    String dockerfile = Files.readString(ROOT.resolve("../docker/landmark-agent.Dockerfile"));
    Matcher vm = options.matcher(unit);
    Matcher image = options.matcher(dockerfile);
    assertThat(vm.find()).as("reed-agent.service sets JDK_JAVA_OPTIONS").isTrue();
    assertThat(image.find()).as("the agent image sets JDK_JAVA_OPTIONS").isTrue();
    assertThat(vm.group(1)).isEqualTo(image.group(1)).containsPattern("-Xmx\\d+[mg]");
    assertThat(unit + dockerfile).doesNotContain("MaxRAMPercentage");
    assertThat(Files.readString(ROOT.resolve("../landmark-agent/README.md")))
        .as("the README states the heap it measured").contains("`" + image.group(1) + "`");
  }

  @Test
  void theGlobalExamplePlacesFifteenAgentsFivePerContinent() {
    JsonNode agents = configs.get(EXAMPLE).locals().get("agents");
    assertThat(agents.size()).isEqualTo(15);
    Map<String, Integer> perContinent = new TreeMap<>();
    Set<String> regions = new TreeSet<>();
    agents.fields().forEachRemaining(e -> {
      String cloud = e.getValue().get("cloud").asText();
      String region = e.getValue().get("region").asText();
      assertThat(cloud).isIn("aws", "gcp");
      assertThat(regions.add(cloud + "/" + region)).as("one agent per region: %s", region).isTrue();
      perContinent.merge(continent(cloud, region), 1, Integer::sum);
    });
    assertThat(perContinent).containsExactlyInAnyOrderEntriesOf(Map.of("Europe", 5, "North America", 5, "Asia", 5));
    Set<String> clouds = new TreeSet<>();
    agents.forEach(a -> clouds.add(a.get("cloud").asText()));
    assertThat(clouds).as("the example exercises both clouds").containsExactly("aws", "gcp");
  }

  @Test
  void everyLandmarkOfTheExampleAnnouncesALocationOnItsContinent() {
    JsonNode builtin = configs.get(MODULE).locals().get("region_locations_builtin");
    assertThat(builtin.size()).isGreaterThanOrEqualTo(40);
    builtin.fields().forEachRemaining(e -> {
      double lat = e.getValue().get("latitude").asDouble();
      double lon = e.getValue().get("longitude").asDouble();
      // what the module renders is what the agent parses (REED_AGENT_LOCATION)
      assertThat(dev.reed.agent.AgentConfig.location(lat + "," + lon).getLatitudeDeg()).as(e.getKey()).isEqualTo(lat);
    });
    configs.get(EXAMPLE).locals().get("agents").fields().forEachRemaining(e -> {
      String cloud = e.getValue().get("cloud").asText();
      String region = e.getValue().get("region").asText();
      JsonNode at = builtin.get(region);
      assertThat(at).as("built-in location of %s/%s", cloud, region).isNotNull();
      double lat = at.get("latitude").asDouble();
      double lon = at.get("longitude").asDouble();
      switch (continent(cloud, region)) {
        case "Europe" -> assertThat(lat >= 35 && lat <= 71 && lon >= -25 && lon <= 45).as("%s in Europe", region).isTrue();
        case "North America" -> assertThat(lat >= 15 && lat <= 72 && lon >= -170 && lon <= -50).as("%s in N. America", region).isTrue();
        case "Asia" -> assertThat(lat >= -11 && lat <= 60 && lon >= 60 && lon <= 150).as("%s in Asia", region).isTrue();
        default -> throw new AssertionError(region);
      }
    });
    // the module renders the location for every agent (the template gets it: see the templates test)
    assertThat(configs.get(MODULE).localsUsed()).contains("agent_locations", "region_locations", "region_locations_builtin");
  }

  static String continent(String cloud, String region) {
    if (cloud.equals("aws")) {
      if (region.startsWith("eu-")) return "Europe";
      if (region.startsWith("us-") || region.startsWith("ca-")) return "North America";
      if (region.startsWith("ap-")) return "Asia";
    } else {
      if (region.startsWith("europe-")) return "Europe";
      if (region.startsWith("us-") || region.startsWith("northamerica-")) return "North America";
      if (region.startsWith("asia-")) return "Asia";
    }
    throw new AssertionError("unknown region " + cloud + "/" + region);
  }

  static List<Path> terraformFiles() throws IOException {
    try (Stream<Path> s = Files.walk(ROOT)) {
      return s.filter(p -> p.toString().endsWith(".tf") || p.toString().endsWith(".tfvars.example"))
          .filter(p -> !ROOT.relativize(p).startsWith("src") && !ROOT.relativize(p).startsWith("target"))
          .sorted().toList();
    }
  }
}
