package dev.reed.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.probe.a2s.A2sCodec;
import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.proto.v1.ChallengeCheck;
import dev.reed.proto.v1.ServerInfo;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The reply forensics of one probe's exchange, reply by reply. */
class QueryExchangeForensicsTest {
  private static final ServerInfo INFO = ServerInfo.newBuilder().setName("n").setMap("m").setGame("g").build();
  private static final ProbeTarget A2S = ProbeTarget.a2s(new InetSocketAddress("127.0.0.1", 27015));
  private static final ProbeTarget Q3 = ProbeTarget.quake3(new InetSocketAddress("127.0.0.1", 27960));

  private static QueryExchange.Step reply(QueryExchange x, byte[] packet) {
    return x.onReply(ByteBuffer.wrap(packet));
  }

  private static byte[] info() {
    return A2sCodec.encodeInfo(INFO, 27015);
  }

  @Test
  void aRealServerRefusesTheForgedChallengeAndIsProbedAsUsual() {
    QueryExchange x = QueryExchange.forTarget(A2S, new SplittableRandom(1), true);
    assertThat(x.firstRequest()).hasSize(29); // the 25-byte request + a challenge the server never issued
    QueryExchange.Step s = reply(x, A2sCodec.encodeChallenge(1234));
    assertThat(s).isInstanceOf(QueryExchange.Resend.class);
    assertThat(((QueryExchange.Resend) s).request()).isEqualTo(A2sCodec.encodeInfoRequest(1234));
    assertThat(x.challengeCheck()).isEqualTo(ChallengeCheck.CHALLENGE_CHECK_REFUSED);
    assertThat(reply(x, info())).isInstanceOf(QueryExchange.Done.class);
    assertThat(x.challengeCheck()).isEqualTo(ChallengeCheck.CHALLENGE_CHECK_REFUSED);
  }

  @Test
  void aProxyThatAnswersTheForgedChallengeButChallengesAPlainRequestAcceptedIt() {
    QueryExchange x = QueryExchange.forTarget(A2S, new SplittableRandom(2), true);
    QueryExchange.Step s = reply(x, info());
    assertThat(s).as("info to a forged challenge: ask plainly").isInstanceOf(QueryExchange.Resend.class);
    assertThat(((QueryExchange.Resend) s).request()).isEqualTo(A2sCodec.encodeInfoRequest());
    assertThat(x.challengeCheck()).isEqualTo(ChallengeCheck.CHALLENGE_CHECK_UNSPECIFIED);
    assertThat(reply(x, A2sCodec.encodeChallenge(99))).isInstanceOf(QueryExchange.Resend.class);
    assertThat(x.challengeCheck()).isEqualTo(ChallengeCheck.CHALLENGE_CHECK_ACCEPTED);
    QueryExchange.Step done = reply(x, info());
    assertThat(done).isInstanceOf(QueryExchange.Done.class);
    assertThat(((QueryExchange.Done) done).digest()).isEqualTo(ReplyDigest.of(info()));
  }

  @Test
  void aServerThatNeverChallengesIsInconclusive() {
    QueryExchange x = QueryExchange.forTarget(A2S, new SplittableRandom(3), true);
    assertThat(reply(x, info())).isInstanceOf(QueryExchange.Resend.class);
    assertThat(reply(x, info())).isInstanceOf(QueryExchange.Done.class);
    assertThat(x.challengeCheck()).isEqualTo(ChallengeCheck.CHALLENGE_CHECK_INCONCLUSIVE);
  }

  @Test
  void aPlainProbeChecksNothing() {
    QueryExchange x = QueryExchange.forTarget(A2S, new SplittableRandom(4), false);
    assertThat(x.firstRequest()).isEqualTo(A2sCodec.encodeInfoRequest());
    reply(x, A2sCodec.encodeChallenge(5));
    assertThat(reply(x, info())).isInstanceOf(QueryExchange.Done.class);
    assertThat(x.challengeCheck()).isEqualTo(ChallengeCheck.CHALLENGE_CHECK_UNSPECIFIED);
  }

  @Test
  void quake3DigestsLeaveTheChallengeOutAndAStaleEchoIsForeign() {
    QueryExchange a = QueryExchange.forTarget(Q3, new SplittableRandom(5), false);
    QueryExchange b = QueryExchange.forTarget(Q3, new SplittableRandom(6), false);
    String ca = Quake3Codec.decodeRequest(ByteBuffer.wrap(a.firstRequest())).challenge();
    String cb = Quake3Codec.decodeRequest(ByteBuffer.wrap(b.firstRequest())).challenge();
    assertThat(ca).isNotEqualTo(cb);
    QueryExchange.Done da = (QueryExchange.Done) reply(a, Quake3Codec.encodeInfoResponse(INFO, ca));
    QueryExchange.Done db = (QueryExchange.Done) reply(b, Quake3Codec.encodeInfoResponse(INFO, cb));
    assertThat(da.digest()).as("the same content to two probes").isEqualTo(db.digest()).isNotZero();
    QueryExchange.Done other = (QueryExchange.Done) QueryExchange.forTarget(Q3, new SplittableRandom(5), false)
        .onReply(ByteBuffer.wrap(Quake3Codec.encodeInfoResponse(INFO.toBuilder().setPlayers(1).build(), ca)));
    assertThat(other.digest()).as("different content").isNotEqualTo(da.digest());
    // a cache replays the reply to a's challenge to b
    assertThat(QueryExchange.forTarget(Q3, new SplittableRandom(6), false)
        .onReply(ByteBuffer.wrap(Quake3Codec.encodeInfoResponse(INFO, ca)))).isInstanceOf(QueryExchange.Foreign.class);
  }
}
