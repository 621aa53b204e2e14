package dev.reed.coordinator.index.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The two encodings of a template's landmark RTTs and the landmark numbering they share. */
public class RankedTemplateTest {
  /** A server with an RTT to each of {@code landmarkIds}; the write side's tests build theirs on it. */
  public static ServerCoordinate server(String ip, String... landmarkIds) {
    ServerCoordinate.Builder b = ServerCoordinate.newBuilder().setEndpoint(Endpoint.newBuilder().setIp(ip).setPort(27015))
        .setCoordinate(Coordinate.newBuilder().addComponents(12.5).addComponents(-3)).setServerInfo(ServerInfo.newBuilder()
            .setName("srv " + ip).setMap("q3dm17"));
    for (int i = 0; i < landmarkIds.length; i++) {
      b.addLandmarkRtts(LandmarkRtt.newBuilder().setLandmarkId(landmarkIds[i]).setRttUs(1_000 * (i + 1) + ip.length()));
    }
    return b.build();
  }

  static RankedServer parse(byte[]... parts) throws Exception {
    ByteString b = ByteString.EMPTY;
    for (byte[] p : parts) b = b.concat(ByteString.copyFrom(p));
    return RankedServer.parseFrom(b);
  }

  /** What the compact fields say, in landmark_rtts' form. */
  static List<LandmarkRtt> resolved(RankedServer s, List<String> table) {
    assertThat(s.getLandmarkRefsCount()).isEqualTo(s.getLandmarkRttUsCount());
    List<LandmarkRtt> out = new ArrayList<>();
    for (int i = 0; i < s.getLandmarkRefsCount(); i++) {
      out.add(LandmarkRtt.newBuilder().setLandmarkId(table.get(s.getLandmarkRefs(i))).setRttUs(s.getLandmarkRttUs(i)).build());
    }
    return out;
  }

  static byte[] longForm(RankedTemplate t, List<String> table) throws Exception {
    byte[][] ids = RankedTemplate.idFields(table);
    byte[] out = new byte[t.landmarkRttsLength(ids)];
    com.google.protobuf.CodedOutputStream o = com.google.protobuf.CodedOutputStream.newInstance(out);
    t.writeLandmarkRtts(o, ids);
    o.checkNoSpaceLeft();
    return out;
  }

  @Test
  void bothEncodingsParseToTheSameServerAndTheSameLandmarkRtts() throws Exception {
    LandmarkNumbers numbers = new LandmarkNumbers();
    numbers.number("retired"); // a table may hold numbers no template uses
    ServerCoordinate c = server("10.0.0.1", "aws-eu-west-1", "gcp-us-east4", "landmark-07");
    RankedTemplate t = RankedTemplate.of(c, numbers);
    List<String> table = numbers.table();
    RankedServer full = parse(t.common(), longForm(t, table));
    RankedServer compact = parse(t.common(), t.compactRtts());
    assertThat(full).isEqualTo(t.message(false, table));
    assertThat(full.getLandmarkRttsList()).isEqualTo(c.getLandmarkRttsList());
    assertThat(t.landmarkRtts(table)).isEqualTo(c.getLandmarkRttsList());
    assertThat(compact.getLandmarkRttsList()).isEmpty();
    assertThat(resolved(compact, table)).isEqualTo(c.getLandmarkRttsList());
    assertThat(compact).isEqualTo(t.message(true, table));
    assertThat(compact.toBuilder().clearLandmarkRefs().clearLandmarkRttUs().build())
        .isEqualTo(full.toBuilder().clearLandmarkRtts().build());
    byte[][] ids = RankedTemplate.idFields(table);
    assertThat(t.length(false, ids)).isEqualTo(full.getSerializedSize());
    assertThat(t.length(true, ids)).isEqualTo(compact.getSerializedSize());
    assertThat(t.compactRtts().length).as("4-5 bytes per landmark against ~19").isLessThan(longForm(t, table).length / 2);
    assertThat(t.maxRef()).isEqualTo(3);
  }

  @Test
  void oneArrayHoldsTheThreePartsAndTheWriterWritesEachOnItsOwn() throws Exception {
    LandmarkNumbers numbers = new LandmarkNumbers();
    ServerCoordinate c = server("10.0.0.7", "lm-a", "lm-b").toBuilder().setRound(41)
        .setUpdateTime(com.google.protobuf.Timestamp.newBuilder().setSeconds(1_700_000_000)).build();
    RankedTemplate t = RankedTemplate.of(c, numbers);
    assertThat(t.rest()).isEqualTo(RebuiltCoordinates.rest(c)).isNotEmpty();
    assertThat(t.bytes()).hasSize(t.common().length + t.compactRtts().length + t.rest().length);
    RankedTemplate again = RankedTemplate.of(t.common(), t.compactRtts(), t.rest(), t.maxRef(), t.integrity());
    assertThat(again.bytes()).isEqualTo(t.bytes());
    assertThat(again.commonLength()).isEqualTo(t.commonLength());
    assertThat(again.compactLength()).isEqualTo(t.compactLength());
    byte[] written = new byte[t.commonLength() + t.compactLength()];
    com.google.protobuf.CodedOutputStream o = com.google.protobuf.CodedOutputStream.newInstance(written);
    t.writeCommon(o);
    t.writeCompactRtts(o);
    o.checkNoSpaceLeft();
    assertThat(RankedServer.parseFrom(written)).isEqualTo(t.message(true, numbers.table()));
    assertThatThrownBy(() -> new RankedTemplate(new byte[4], 3, 2, -1, dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_OK))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("in 4");
    assertThatThrownBy(() -> new RankedTemplate(new byte[4], -1, 0, -1, dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_OK))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aZeroRttIsLeftOutOfTheLongFormAsProtobufWouldLeaveItOut() throws Exception {
    LandmarkNumbers numbers = new LandmarkNumbers();
    ServerCoordinate c = server("10.0.0.9", "lm-a", "lm-b").toBuilder()
        .setLandmarkRtts(1, LandmarkRtt.newBuilder().setLandmarkId("lm-b").setRttUs(0)).build();
    RankedTemplate t = RankedTemplate.of(c, numbers);
    RankedServer full = parse(t.common(), longForm(t, numbers.table()));
    assertThat(full.getLandmarkRttsList()).isEqualTo(c.getLandmarkRttsList());
    assertThat(longForm(t, numbers.table())).isEqualTo(
        RankedServer.newBuilder().addAllLandmarkRtts(c.getLandmarkRttsList()).build().toByteArray());
  }

  @Test
  void aServerWithoutLandmarkRttsHasNeitherFormAndNoNumbers() throws Exception {
    LandmarkNumbers numbers = new LandmarkNumbers();
    RankedTemplate t = RankedTemplate.of(server("10.0.0.2"), numbers);
    assertThat(longForm(t, numbers.table())).isEmpty();
    assertThat(t.compactRtts()).isEmpty();
    assertThat(t.maxRef()).isEqualTo(-1);
    assertThat(t.message(true, numbers.table())).isEqualTo(t.message(false, numbers.table()));
    assertThat(numbers.table()).isEmpty();
    assertThat(RankedTemplate.bare(Endpoint.newBuilder().setIp("10.0.0.3").setPort(1).build()).length(true, null)).isPositive();
  }

  @Test
  void aLandmarkSeenLaterGetsTheNextNumberAndEarlierTemplatesKeepTheirs() throws Exception {
    LandmarkNumbers numbers = new LandmarkNumbers();
    ServerCoordinate ca = server("10.0.0.1", "lm-b", "lm-a");
    RankedTemplate a = RankedTemplate.of(ca, numbers);
    List<String> before = numbers.table();
    ServerCoordinate cb = server("10.0.0.2", "lm-a", "lm-new", "lm-b");
    RankedTemplate b = RankedTemplate.of(cb, numbers);
    List<String> after = numbers.table();
    assertThat(before).containsExactly("lm-b", "lm-a");
    assertThat(after).containsExactly("lm-b", "lm-a", "lm-new");
    assertThat(b.refs()).containsExactly(1, 2, 0);
    assertThat(resolved(parse(a.common(), a.compactRtts()), after)).isEqualTo(ca.getLandmarkRttsList());
    assertThat(resolved(parse(b.common(), b.compactRtts()), after)).isEqualTo(cb.getLandmarkRttsList());
  }

  @Test
  void aStateRefusesATableThatLacksANumberOneOfItsTemplatesUses() {
    LandmarkNumbers numbers = new LandmarkNumbers();
    RankedTemplate a = RankedTemplate.of(server("10.0.0.1", "lm-a"), numbers);
    List<String> stale = numbers.table();
    RankedTemplate b = RankedTemplate.of(server("10.0.0.2", "lm-a", "lm-new"), numbers);
    Map<String, RankedTemplate> ranked = Map.of("10.0.0.1:27015", a, "10.0.0.2:27015", b);
    assertThatThrownBy(() -> state(ranked, stale)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("10.0.0.2:27015").hasMessageContaining("landmark number 1").hasMessageContaining("the table has 1");
    assertThat(state(ranked, numbers.table()).landmarkIds()).containsExactly("lm-a", "lm-new");
  }

  @Test
  void aStateWithoutAGivenTableReadsItOffItsTemplatesAndTheirCoordinates() {
    LandmarkNumbers numbers = new LandmarkNumbers();
    numbers.number("lm-gone");
    ServerCoordinate c = server("10.0.0.1", "lm-a", "lm-b");
    RankedTemplate a = RankedTemplate.of(c, numbers);
    ServingState s = new ServingState(RankingIndex.of(List.of()), Map.of("10.0.0.1:27015", c), Map.of("10.0.0.1:27015", a),
        Map.of(), List.of(), Map.of(), Map.of(), 0, Instant.EPOCH, 2, false);
    assertThat(s.landmarkIds()).containsExactly("", "lm-a", "lm-b");
  }

  @Test
  void theFeedsCoordinatesWithoutLandmarkRttsReadBackWhole() {
    LandmarkNumbers numbers = new LandmarkNumbers();
    Map<String, ServerCoordinate> whole = new java.util.HashMap<>();
    Map<String, ServerCoordinate> stripped = new java.util.HashMap<>();
    Map<String, DecodedServer> indexed = new java.util.HashMap<>();
    ServerCoordinate bare = ServerCoordinate.newBuilder().setEndpoint(Endpoint.newBuilder().setIp("10.0.0.4").setPort(27015))
        .setRound(9).build(); // no info, no fit, no coordinate: read back without them, not with empty ones
    ServerCoordinate full = server("10.0.0.3", "lm-b", "lm-c").toBuilder().setRound(12).setGeoExcessUs(-300)
        .setUpdateTime(com.google.protobuf.Timestamp.newBuilder().setSeconds(1_700_000_000))
        .setIntegrity(dev.reed.proto.v1.ServerIntegrity.newBuilder()
            .setKind(dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_ANYCAST_OR_PROXY).setViolatingPairs(3))
        .setStability(dev.reed.proto.v1.Stability.newBuilder().setRounds(8).setMedianRttUs(40_000)).build();
    for (ServerCoordinate c : List.of(server("10.0.0.1", "lm-a", "lm-b"), server("10.0.0.2"), full, bare)) {
      String key = c.getEndpoint().getIp() + ":27015";
      whole.put(key, c);
      stripped.put(key, c.toBuilder().clearLandmarkRtts().build());
      indexed.put(key, new DecodedServer(RankedTemplate.of(c, numbers), null));
    }
    RebuiltCoordinates view = new RebuiltCoordinates(Map.copyOf(indexed), numbers.table());
    Map<String, RankedTemplate> ranked = view.templates();
    assertThat(ranked.keySet()).isEqualTo(whole.keySet());
    assertThat(ranked.get("10.0.0.3:27015").integrity()).isEqualTo(dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_ANYCAST_OR_PROXY);
    assertThat(RebuiltCoordinates.rest(full).length).as("update time, round, excess").isLessThan(20);
    assertThat(view).isEqualTo(whole);
    assertThat(view.get("10.0.0.3:27015")).isEqualTo(whole.get("10.0.0.3:27015"));
    assertThat(view.get("10.0.0.5:27015")).isNull();
    assertThat(view.keySet()).isEqualTo(whole.keySet());
    ServingState s = new ServingState(RankingIndex.of(List.of()), view, ranked, Map.of(), List.of(), Map.of(),
        Map.of(), 0, Instant.EPOCH, 2, false, numbers.table(), Map.of());
    assertThat(s.coordinatesOnly()).isEqualTo(stripped);
    assertThat(s.servers()).isEqualTo(whole);
  }

  static ServingState state(Map<String, RankedTemplate> ranked, List<String> table) {
    return new ServingState(RankingIndex.of(List.of()), Map.of(), ranked, Map.of(), List.of(), Map.of(), Map.of(), 0,
        Instant.EPOCH, 2, false, table, Map.of());
  }
}
