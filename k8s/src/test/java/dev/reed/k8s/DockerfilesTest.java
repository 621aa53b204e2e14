package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The container images (docker/*.Dockerfile), checked without a Docker engine: multi-stage build
 * with the Maven wrapper, a JRE 21+ runtime, a non-root user that matches the pods' runAsUser,
 * writable paths declared as volumes (read-only root file system), a health check on the metrics
 * port, the service's own jar set (its module's jar and runtime lib/, not the ./reed distribution)
 * as entry point, and EXPOSEd ports equal to the ports the Kubernetes
 * workload declares and configures.
 */
class DockerfilesTest {

  @ParameterizedTest
  @CsvSource({
      "coordinator.Dockerfile, coordinator, base/coordinator/deployment.yaml, base/coordinator/configmap.yaml, reed-coordinator, REED_COORDINATOR_",
      "landmark-agent.Dockerfile, landmark-agent, components/landmark-agents/daemonset.yaml, components/landmark-agents/configmap.yaml, reed-landmark-agent, REED_AGENT_"})
  void imageIsBuiltRunAndExposedAsTheClusterExpects(String file, String module, String workloadFile,
      String configFile, String configMap, String envPrefix) throws Exception {
    Dockerfile docker = Dockerfile.parse(Checkout.docker().resolve(file));
    assertThat(docker.stages()).as("multi-stage").hasSizeGreaterThanOrEqualTo(2);

    Dockerfile.Stage build = docker.stages().get(0);
    assertThat(build.name()).isEqualTo("build");
    assertThat(String.join("\n", build.args("RUN")))
        .contains("./mvnw").contains("-Dmaven.test.skip=true").contains("-pl " + module + " -am package");

    Dockerfile.Stage runtime = docker.runtime();
    Matcher jre = Pattern.compile("eclipse-temurin:(\\d+)-jre.*").matcher(runtime.from());
    assertThat(jre.matches()).as("runtime stage on a Temurin JRE: %s", runtime.from()).isTrue();
    assertThat(Integer.parseInt(jre.group(1))).isGreaterThanOrEqualTo(21);
    String jar = "reed-" + module + ".jar";
    assertThat(runtime.args("COPY")).anyMatch(c -> c.startsWith("--from=build") && c.contains(module + "/target/" + jar + " /opt/reed/" + jar));
    assertThat(runtime.args("COPY")).anyMatch(c -> c.startsWith("--from=build") && c.contains(module + "/target/lib/ /opt/reed/lib/"));
    assertThat(String.join("\n", runtime.args("COPY"))).as("no ./reed distribution in a service image").doesNotContain("cli/");

    // non-root, and the same uid/gid the pods run as
    Workload workload = new Workload(ManifestSet.read(Checkout.k8s().resolve(workloadFile)).manifests().get(0));
    List<String> users = runtime.args("USER");
    assertThat(users).hasSize(1);
    String[] user = users.get(0).split(":");
    assertThat(user[0]).isNotIn("0", "root");
    assertThat(Integer.parseInt(user[0])).isEqualTo(Manifest.at(workload.podSpec(), "securityContext.runAsUser"));
    assertThat(Integer.parseInt(user[1])).isEqualTo(Manifest.at(workload.podSpec(), "securityContext.runAsGroup"));

    // ENTRYPOINT: exec form, java -jar the service's jar (its manifest names the main class); arguments after the image name follow
    List<String> entrypoint = new ObjectMapper().readValue(String.join("", runtime.args("ENTRYPOINT")), new TypeReference<>() {});
    assertThat(entrypoint.get(0)).isEqualTo("java");
    assertThat(entrypoint.subList(entrypoint.size() - 2, entrypoint.size())).containsExactly("-jar", "/opt/reed/" + jar);

    // ENV defaults agree with the cluster configuration; writable dirs are volumes
    Map<String, String> env = runtime.env();
    Map<String, Object> config = ManifestSet.read(Checkout.k8s().resolve(configFile)).one("ConfigMap", configMap).map("data");
    env.forEach((k, v) -> {
      if (config.containsKey(k)) assertThat(String.valueOf(config.get(k))).as("%s: %s", file, k).isEqualTo(v);
    });
    List<String> volumes = new ObjectMapper().readValue(String.join("", runtime.args("VOLUME")), new TypeReference<>() {});
    assertThat(volumes).contains("/tmp");
    env.forEach((k, v) -> {
      if (k.endsWith("_DIR")) assertThat(volumes).as("%s=%s is a volume", k, v).contains(v);
    });

    // EXPOSE = the workload's container ports
    Set<String> exposed = runtime.args("EXPOSE").stream()
        .flatMap(a -> List.of(a.split("\\s+")).stream())
        .map(p -> p.contains("/") ? p.toLowerCase() : p + "/tcp")
        .collect(Collectors.toCollection(TreeSet::new));
    Set<String> declared = workload.ports().stream()
        .map(p -> p.number() + "/" + p.protocol().toLowerCase())
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(exposed).as("%s EXPOSE vs %s ports", file, workloadFile).isEqualTo(declared);

    // HEALTHCHECK: /healthz on the metrics port the image configures
    List<String> health = runtime.args("HEALTHCHECK");
    assertThat(health).hasSize(1);
    assertThat(health.get(0)).doesNotStartWith("NONE").contains("/healthz").contains("${" + envPrefix + "METRICS_PORT}");
    assertThat(Integer.parseInt(env.get(envPrefix + "METRICS_PORT"))).isEqualTo(workload.port("metrics").number());
  }

  @ParameterizedTest
  @CsvSource({"coordinator.Dockerfile", "landmark-agent.Dockerfile"})
  void buildContextLeavesOutBuildOutputAndGitHistory(String file) throws Exception {
    List<String> ignore = Files.readAllLines(Checkout.docker().resolve(file + ".dockerignore"));
    assertThat(ignore).contains(".git", "**/target");
  }

}
