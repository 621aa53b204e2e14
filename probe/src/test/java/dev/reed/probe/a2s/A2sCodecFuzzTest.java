package dev.reed.probe.a2s;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.reed.probe.packet.MalformedPacketException;
import java.nio.ByteBuffer;

/**
 * Coverage-guided fuzzing of every A2S parser (Jazzer). In a normal {@code mvn test} this runs in
 * regression mode over the seeds in src/test/resources/dev/reed/probe/a2s/A2sCodecFuzzTestInputs;
 * run with {@code JAZZER_FUZZ=1} to fuzz. The property: only {@link MalformedPacketException}
 * escapes, whatever the bytes.
 */
class A2sCodecFuzzTest {
  @FuzzTest(maxDuration = "20s")
  void decodeReply(byte[] data) {
    try {
      A2sReply r = A2sCodec.decodeReply(data);
      if (r instanceof A2sSplitFragment f) {
        byte[] whole = new SplitReassembler().offer(f);
        if (whole != null) {
          A2sCodec.decodeReassembled(whole);
        }
      }
    } catch (MalformedPacketException expected) {
      // the documented outcome for bad input
    }
  }

  @FuzzTest(maxDuration = "20s")
  void decodeRequest(byte[] data) {
    try {
      A2sCodec.decodeRequest(ByteBuffer.wrap(data));
    } catch (MalformedPacketException expected) {
      // the documented outcome for bad input
    }
  }
}
