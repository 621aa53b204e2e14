package dev.reed.client;

/** Where the client's position is solved from its calibration RTTs. */
public enum Positioning {
  /** In the client with the coordinates module's host positioning; the Locate RPC if that fails. Default. */
  LOCAL,
  /** On the coordinator (Locate RPC), for thin clients. */
  LOCATE_RPC
}
