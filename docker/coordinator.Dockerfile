# syntax=docker/dockerfile:1.7
# The reed coordinator image: ingest -> coordinates -> REED rankings over gRPC, and to
# web pages over HTTP (HTTP/JSON, gRPC-Web, the discovery page at /).
#
#   docker build -f docker/coordinator.Dockerfile -t reed-coordinator .     (context = repository root)
#
# Built from source with the Maven wrapper, like ./reed does; the runtime stage holds only a JRE
# and the coordinator's own jar set (reed-coordinator.jar + its runtime lib/, not the whole
# ./reed distribution: see docker/README.md for the sizes). It runs as an unprivileged user and writes only to
# the volumes below, so it works with a read-only root file system (k8s/base sets that).
# Options come from REED_COORDINATOR_* environment variables or arguments after the image name.

FROM eclipse-temurin:21-jdk AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -Dmaven.test.skip=true -pl coordinator -am package \
 && test -f coordinator/target/reed-coordinator.jar

FROM eclipse-temurin:21-jre
RUN groupadd --system --gid 10001 reed \
 && useradd --system --uid 10001 --gid reed --home-dir /var/lib/reed --no-create-home --shell /usr/sbin/nologin reed \
 && install -d -o reed -g reed -m 0750 /var/lib/reed/snapshots /var/lib/reed/index
COPY --from=build --chown=root:root /src/coordinator/target/reed-coordinator.jar /opt/reed/reed-coordinator.jar
COPY --from=build --chown=root:root /src/coordinator/target/lib/ /opt/reed/lib/
# the documented settings files (--reports-config, --integrity-config), to copy and edit in a ConfigMap
COPY --from=build --chown=root:root /src/coordinator/config/ /opt/reed/config/

# Writable paths: snapshots for analysts, the index checkpoint a restarted container serves from,
# and /tmp (Netty unpacks its native transport there).
VOLUME ["/var/lib/reed/snapshots", "/var/lib/reed/index", "/tmp"]
ENV REED_COORDINATOR_GRPC_PORT=50051 \
    REED_COORDINATOR_METRICS_PORT=9464 \
    REED_COORDINATOR_HTTP=0.0.0.0:8080 \
    REED_COORDINATOR_SNAPSHOT_DIR=/var/lib/reed/snapshots \
    REED_COORDINATOR_INDEX_CHECKPOINT=/var/lib/reed/index/index.checkpoint \
    REED_COORDINATOR_Q3_MASTER_PORT=27950 \
    REED_COORDINATOR_VALVE_MASTER_PORT=27011 \
    JDK_JAVA_OPTIONS="-Xms1g -Xmx1g -XX:+UseParallelGC -XX:+UseCountedLoopSafepoints -XX:LoopStripMiningIter=1000 -XX:+AlwaysPreTouch"

# gRPC API (health + reflection on it too), Prometheus /metrics + /healthz, the HTTP face (plain
# HTTP: terminate TLS in front of it), catalog front ends.
EXPOSE 50051/tcp 9464/tcp 8080/tcp 27950/udp 27011/udp

USER 10001:10001
WORKDIR /var/lib/reed

# No curl in the image: bash's /dev/tcp asks /healthz on the metrics port.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${REED_COORDINATOR_METRICS_PORT} && printf 'GET /healthz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200'"]

# JDK_JAVA_OPTIONS (above; the java launcher reads it): the heap, the collector and pre-touch the
# scale harness measured (docs/operations.md, "JVM settings and memory limits"); -Xms = -Xmx with
# the heap touched at start, or young collections fault its pages in inside their pauses. The
# Kubernetes overlays set their own heap; a container's memory limit must be the heap + 512 MiB.
# -XX:-UsePerfData: no hsperfdata files.
# ThreadPriorityPolicy/JavaPriority1_To_OSPriority: background threads at nice 10, queries first
# (coordinator/README.md, "Pipeline details"); as user 10001 the JVM warns once that raising a
# priority would need permission, lowering does not.
ENTRYPOINT ["java", "-XX:+ExitOnOutOfMemoryError", "-XX:-UsePerfData", \
            "-XX:ThreadPriorityPolicy=1", "-XX:JavaPriority1_To_OSPriority=10", \
            "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=/tmp", \
            "-jar", "/opt/reed/reed-coordinator.jar"]
