package dev.reed.probe.quake3;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.reed.probe.packet.MalformedPacketException;
import java.nio.ByteBuffer;

/**
 * Coverage-guided fuzzing of the Quake3 parsers (Jazzer); regression mode over the seeds in
 * src/test/resources during {@code mvn test}, {@code JAZZER_FUZZ=1} to fuzz. Only
 * {@link MalformedPacketException} may escape.
 */
class Quake3CodecFuzzTest {
  @FuzzTest(maxDuration = "20s")
  void decodeReply(byte[] data) {
    try {
      Quake3Reply r = Quake3Codec.decodeReply(data);
      r.challenge();
    } catch (MalformedPacketException expected) {
      // the documented outcome for bad input
    }
  }

  @FuzzTest(maxDuration = "20s")
  void decodeRequest(byte[] data) {
    try {
      Quake3Codec.decodeRequest(ByteBuffer.wrap(data));
    } catch (MalformedPacketException expected) {
      // the documented outcome for bad input
    }
  }
}
