# syntax=docker/dockerfile:1.7
# The reed landmark agent image: probe rounds, calibration beacon, Kafka publishing with an
# on-disk spool.
#
#   docker build -f docker/landmark-agent.Dockerfile -t reed-landmark-agent .   (context = repository root)
#   docker run --network host -v reed-spool:/var/lib/reed/spool reed-landmark-agent --id eu-west-1 --kafka HOST:9094
#
# Host networking gives the most accurate RTTs (no NAT/bridge in the path; paper 5.1.1 wants the
# least-disturbed measurements). The spool must survive restarts: mount a volume there.
# Options come from REED_AGENT_* environment variables or arguments after the image name.
# The runtime stage holds only a JRE and the agent's own jar set (reed-landmark-agent.jar + its
# runtime lib/, not the whole ./reed distribution: see docker/README.md for the sizes).

FROM eclipse-temurin:21-jdk AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -Dmaven.test.skip=true -pl landmark-agent -am package \
 && test -f landmark-agent/target/reed-landmark-agent.jar

FROM eclipse-temurin:21-jre
RUN groupadd --system --gid 10001 reed \
 && useradd --system --uid 10001 --gid reed --home-dir /var/lib/reed --no-create-home --shell /usr/sbin/nologin reed \
 && install -d -o reed -g reed -m 0750 /var/lib/reed/spool
COPY --from=build --chown=root:root /src/landmark-agent/target/reed-landmark-agent.jar /opt/reed/reed-landmark-agent.jar
COPY --from=build --chown=root:root /src/landmark-agent/target/lib/ /opt/reed/lib/

# Writable paths: the spool (batches Kafka has not acknowledged yet) and /tmp.
VOLUME ["/var/lib/reed/spool", "/tmp"]
ENV REED_AGENT_SPOOL_DIR=/var/lib/reed/spool \
    REED_AGENT_BEACON=0.0.0.0:27960 \
    REED_AGENT_WS_BEACON=0.0.0.0:27961 \
    REED_AGENT_METRICS_PORT=9465 \
    JDK_JAVA_OPTIONS="-Xms64m -Xmx256m"

# Calibration beacon (A2S_INFO + Quake3 getinfo), Prometheus /metrics + /healthz, and the
# WebSocket beacon for web pages (TCP; wss:// with REED_AGENT_WS_TLS_CERT/KEY).
EXPOSE 27960/udp 9465/tcp 27961/tcp

USER 10001:10001
WORKDIR /var/lib/reed

# JDK_JAVA_OPTIONS (above; the java launcher reads it, so `docker run -e` overrides it): the heap
# measured for 250,000 targets, twice the smallest that ran their round at full speed
# (landmark-agent/README.md, "Heap"). Raise it with the fleet: about 0.2 KB a target.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${REED_AGENT_METRICS_PORT} && printf 'GET /healthz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200'"]

ENTRYPOINT ["java", "-XX:+ExitOnOutOfMemoryError", "-XX:-UsePerfData", \
            "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=/tmp", \
            "-jar", "/opt/reed/reed-landmark-agent.jar"]
