package dev.reed.testbed.world;

/** Coarse regions of the emulated world, as the REED paper groups servers and landmarks. */
public enum Region {
  EU("Europe"),
  NA("North America"),
  AS("Asia"),
  SA("South America"),
  OC("Oceania"),
  AF("Africa"),
  ME("Middle East"),
  UNKNOWN("unknown");

  private final String displayName;

  Region(String displayName) {
    this.displayName = displayName;
  }

  public String displayName() {
    return displayName;
  }
}
