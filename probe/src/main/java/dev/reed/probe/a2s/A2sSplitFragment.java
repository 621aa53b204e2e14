package dev.reed.probe.a2s;

/**
 * One packet of a split reply ({@code FE FF FF FF}, Source format): reassemble with
 * {@link SplitReassembler}.
 *
 * @param id reply id shared by all fragments (top bit = bzip2-compressed)
 * @param total number of fragments
 * @param number this fragment's index, from 0
 * @param size the server's maximum fragment size
 * @param payload this fragment's payload
 */
public record A2sSplitFragment(int id, int total, int number, int size, byte[] payload) implements A2sReply {
  public boolean compressed() {
    return (id & 0x8000_0000) != 0;
  }
}
