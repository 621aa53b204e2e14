package dev.reed.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MatrixDescriptionTest {

  @TempDir
  Path dir;

  /** The figures azure54's README states (median RTT, regions) and the share of violated triangles. */
  @Test
  void describesTheLocatedRealMatrix() throws Exception {
    Path matrix = Matrices.matrix("azure54_latency");
    MatrixDescription d = MatrixDescription.of(RttMatrix.load(matrix, matrix.resolveSibling("nodes.csv")), 1);
    assertEquals(54, d.hosts());
    assertEquals(152.5, d.medianRttMs(), 1.0);
    assertEquals(19, d.regions().get("EU"));
    assertEquals(12, d.regions().get("NA"));
    assertEquals(5, d.bands().size());
    assertEquals(772, d.bands().get(4).ratio().count(), "pairs beyond 8,000 km");
    // the README: median stretch 1.81 for pairs beyond 500 km; the far band sits just under it
    assertEquals(1.69, d.bands().get(4).ratio().median(), 0.05);
    assertTrue(d.regionPairs().containsKey("EU-NA"));
    assertEquals(0.018, d.tivFraction(), 0.003);
  }

  /** The data set's stats.json: 5.65 % of random triangles violate the triangle inequality. */
  @Test
  void countsViolatedTrianglesAsTheDataSetsDo() throws Exception {
    Path matrix = Matrices.matrix("planetlab490_netlatency");
    MatrixDescription d = MatrixDescription.of(RttMatrix.load(matrix, null), 1);
    assertEquals(0.0565, d.tivFraction(), 0.001);
    assertEquals(133.9, d.medianRttMs(), 0.1);
    assertTrue(d.bands().isEmpty(), "no locations, no distance bands");
  }

  @Test
  void knownTriangleAndNeighbours() {
    // 0-1 and 1-2 are 10 ms, 0-2 is 30 ms: one triangle, one of its three edges violates
    double[][] ms = {{0, 10, 30}, {10, 0, 10}, {30, 10, 0}};
    List<NodeTable.Node> nodes = new ArrayList<>();
    nodes.add(new NodeTable.Node("a", new GeoPoint(50, 8), null, 0, "EU"));
    nodes.add(new NodeTable.Node("b", new GeoPoint(50, 10), null, 0, "EU"));
    nodes.add(new NodeTable.Node("c", new GeoPoint(40, -74), null, 0, "NA"));
    MatrixDescription d = MatrixDescription.of(new RttMatrix(ms, new NodeTable(nodes)), 1);
    assertEquals(1.0 / 3, d.tivFraction(), 1e-12);
    assertEquals(10, d.nearest().median(), 1e-12);
    assertEquals(3, d.nearest().count());
    assertEquals(0, d.tenthNearest().count(), "fewer than 11 hosts: no 10th neighbour");
    assertEquals(1, d.bands().get(0).ratio().count(), "a-b, 143 km");
    assertEquals(10 / (143.0 / 100), d.bands().get(0).ratio().median(), 0.1);
  }

  @Test
  void describeNeedsNoOut() throws Exception {
    Path matrix = Matrices.matrix("azure54_latency");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = new CommandLine(new EvalCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
        .execute("--describe", "--matrix", matrix.toString(), "--nodes", matrix.resolveSibling("nodes.csv").toString());
    assertEquals(0, code, err.toString());
    assertTrue(out.toString().contains("hosts 54, median RTT 152.5 ms"), out.toString());
    assertTrue(out.toString().contains("EU-NA"), out.toString());
    assertTrue(Files.list(dir).findAny().isEmpty());
  }

  @Test
  void evaluationStillNeedsOut() throws Exception {
    Path m = EvalCommandTest.smallMatrix(dir, 30);
    StringWriter err = new StringWriter();
    int code = new CommandLine(new EvalCommand()).setErr(new PrintWriter(err)).execute("--matrix", m.toString());
    assertEquals(2, code);
    assertTrue(err.toString().contains("--out DIR is required"), err.toString());
  }
}
