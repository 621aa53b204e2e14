package dev.reed.coordinates.integrity;

import dev.reed.coordinates.geo.LightBound;
import dev.reed.coordinates.geo.Place;

/**
 * What the landmark mesh says any single host must satisfy, prepared once per round for every
 * server's check: per landmark pair, how far apart the two landmarks are.
 * The mesh's RTTs are first replaced by the shortest path through the mesh (Floyd-Warshall over the
 * lower of both directions): a mesh pair on a detoured route would otherwise flag every server that
 * happens to sit on a better one. With both landmarks located, the light-in-fibre floor between
 * them is a bound too, one no routing can beat.
 */
public final class MeshBounds {
  private final double[][] mesh;
  private final double[][] floor;
  private final String[] names;

  private MeshBounds(double[][] mesh, double[][] floor, String[] names) {
    this.mesh = mesh;
    this.floor = floor;
    this.names = names;
  }

  /**
   * @param meshMs RTT between landmarks {@code [a][b]}, ms (NaN = not measured); square
   * @param places each landmark's location, or null (all or some may be null; the array itself may be null)
   * @param names each landmark's name for the evidence line, or null for {@code #index}
   */
  public static MeshBounds of(double[][] meshMs, Place[] places, String[] names) {
    int l = meshMs.length;
    if (places != null && places.length != l) {
      throw new IllegalArgumentException("places: " + places.length + " for " + l + " landmarks");
    }
    if (names != null && names.length != l) {
      throw new IllegalArgumentException("names: " + names.length + " for " + l + " landmarks");
    }
    double[][] d = new double[l][l];
    for (int a = 0; a < l; a++) {
      if (meshMs[a].length != l) throw new IllegalArgumentException("mesh is not square: row " + a);
      for (int b = 0; b < l; b++) {
        d[a][b] = a == b ? 0 : Math.min(finiteOrInf(meshMs[a][b]), finiteOrInf(meshMs[b][a]));
        if (d[a][b] < 0) throw new IllegalArgumentException("negative mesh RTT [" + a + "][" + b + "]");
      }
    }
    for (int k = 0; k < l; k++) {
      for (int a = 0; a < l; a++) {
        for (int b = 0; b < l; b++) {
          double via = d[a][k] + d[k][b];
          if (via < d[a][b]) d[a][b] = via;
        }
      }
    }
    double[][] mesh = new double[l][l];
    double[][] floor = new double[l][l];
    for (int a = 0; a < l; a++) {
      for (int b = 0; b < l; b++) {
        mesh[a][b] = a == b || Double.isInfinite(d[a][b]) ? Double.NaN : d[a][b];
        floor[a][b] = places != null && places[a] != null && places[b] != null && a != b
            ? LightBound.floorMs(places[a].kmTo(places[b])) : Double.NaN;
      }
    }
    return new MeshBounds(mesh, floor, names);
  }

  public int landmarks() {
    return mesh.length;
  }

  /** The shortest path between two landmarks through the mesh, ms; NaN when not connected. */
  public double mesh(int a, int b) {
    return mesh[a][b];
  }

  /** The light-in-fibre floor between two located landmarks, ms; NaN unless both are located. */
  public double lightFloor(int a, int b) {
    return floor[a][b];
  }

  /** A landmark's name for evidence lines. */
  public String name(int k) {
    return names == null ? "#" + k : names[k];
  }

  /** How far apart the two landmarks are: the shortest mesh path, or the light floor when higher (NaN if neither), ms. */
  public double reference(int a, int b) {
    double m = mesh[a][b];
    double f = floor[a][b];
    return Double.isNaN(m) ? f : Double.isNaN(f) ? m : Math.max(m, f);
  }

  private static double finiteOrInf(double v) {
    return Double.isFinite(v) ? v : Double.POSITIVE_INFINITY;
  }
}
