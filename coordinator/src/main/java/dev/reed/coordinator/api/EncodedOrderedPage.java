package dev.reed.coordinator.api;

import com.google.protobuf.CodedOutputStream;
import dev.reed.coordinator.index.read.RankedTemplate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A {@code GetOrderedServersResponse} assembled on the wire from pre-encoded {@link RankedTemplate}s:
 * each server is its template bytes (the landmark RTTs in the form the request asked for)
 * followed by {@code predicted_rtt_us} (field 3; protobuf accepts fields in any order), so the hot
 * path copies bytes instead of building and serialising 230 messages per call. Clients see an
 * ordinary GetOrderedServersResponse; with compact landmark RTTs it ends with the state's
 * landmark_ids table.
 */
final class EncodedOrderedPage {
  private static final int SERVERS_TAG = (1 << 3) | 2; // repeated RankedServer servers = 1
  private static final int TOKEN_TAG = (2 << 3) | 2; // string next_page_token = 2
  private static final int TOTAL_TAG = 3 << 3; // uint32 total_matching = 3
  private static final int LANDMARK_IDS_TAG = (13 << 3) | 2; // repeated string landmark_ids = 13
  private static final int PREDICTED_TAG = 3 << 3; // RankedServer.predicted_rtt_us = 3

  private EncodedOrderedPage() {}

  /**
   * Encodes one page; {@code templates.get(i)} with {@code predictedUs[i]} and {@code extras[i]}:
   * further RankedServer fields already encoded (placement, geo_predicted_rtt_us, uncertainty_us),
   * appended as they are; {@code extras} or an entry may be null.
   *
   * @param landmarkIds the templates' state's {@code landmarkIds}, which covers every ref they hold
   * @param compact landmark RTTs in the compact form, with {@code landmarkIds} at the end; else as
   *     landmark_rtts, written with the ids
   */
  static byte[] encode(RankedTemplate[] templates, int[] predictedUs, byte[][] extras, String nextToken,
      int totalMatching, List<String> landmarkIds, boolean compact) {
    byte[][] idFields = compact ? null : RankedTemplate.idFields(landmarkIds);
    int[] lengths = new int[templates.length];
    int size = 0;
    for (int i = 0; i < templates.length; i++) {
      lengths[i] = entryLength(templates[i], compact, idFields, predictedUs[i]) + extraLength(extras, i);
      size += 1 + CodedOutputStream.computeUInt32SizeNoTag(lengths[i]) + lengths[i];
    }
    byte[] token = nextToken.getBytes(StandardCharsets.UTF_8);
    if (token.length > 0) size += 1 + CodedOutputStream.computeUInt32SizeNoTag(token.length) + token.length;
    if (totalMatching != 0) size += 1 + CodedOutputStream.computeUInt32SizeNoTag(totalMatching);
    if (compact) {
      for (String id : landmarkIds) size += 1 + CodedOutputStream.computeStringSizeNoTag(id);
    }
    byte[] out = new byte[size];
    CodedOutputStream o = CodedOutputStream.newInstance(out);
    try {
      for (int i = 0; i < templates.length; i++) {
        RankedTemplate t = templates[i];
        o.writeUInt32NoTag(SERVERS_TAG);
        o.writeUInt32NoTag(lengths[i]);
        t.writeCommon(o);
        if (compact) t.writeCompactRtts(o);
        else t.writeLandmarkRtts(o, idFields);
        if (extraLength(extras, i) > 0) o.writeRawBytes(extras[i]);
        if (predictedUs[i] != 0) {
          o.writeUInt32NoTag(PREDICTED_TAG);
          o.writeUInt32NoTag(predictedUs[i]);
        }
      }
      if (token.length > 0) {
        o.writeUInt32NoTag(TOKEN_TAG);
        o.writeUInt32NoTag(token.length);
        o.writeRawBytes(token);
      }
      if (totalMatching != 0) {
        o.writeUInt32NoTag(TOTAL_TAG);
        o.writeUInt32NoTag(totalMatching);
      }
      if (compact) {
        for (String id : landmarkIds) {
          o.writeUInt32NoTag(LANDMARK_IDS_TAG);
          o.writeStringNoTag(id);
        }
      }
      o.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException("response size miscomputed", e);
    }
    return out;
  }

  private static int extraLength(byte[][] extras, int i) {
    return extras == null || extras[i] == null ? 0 : extras[i].length;
  }

  private static int entryLength(RankedTemplate t, boolean compact, byte[][] idFields, int predictedUs) {
    return t.length(compact, idFields) + (predictedUs == 0 ? 0 : 1 + CodedOutputStream.computeUInt32SizeNoTag(predictedUs));
  }
}
