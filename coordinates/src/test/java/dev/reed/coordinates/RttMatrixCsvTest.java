package dev.reed.coordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class RttMatrixCsvTest {

  private static double[][] parse(String text) throws Exception {
    return RttMatrixCsv.parseMatrix(new BufferedReader(new StringReader(text)), "m.csv");
  }

  @Test
  void parsesRowsWithMissingCellsAsNaN() throws Exception {
    double[][] m = parse("0,12.5,\n12.0,0,30\n\n7,31,0\n");
    assertThat(m).hasDimensions(3, 3);
    assertThat(m[0][1]).isEqualTo(12.5);
    assertThat(m[0][2]).isNaN();
    assertThat(m[2][1]).isEqualTo(31.0);
  }

  @Test
  void malformedFilesNameLineAndColumn() {
    assertThatThrownBy(() -> parse("0,x\n1,0\n")).hasMessage("m.csv line 1 column 2: not a number: 'x'");
    assertThatThrownBy(() -> parse("0,-1\n1,0\n")).hasMessageContaining("line 1 column 2: RTT must be finite and >= 0");
    assertThatThrownBy(() -> parse("0,Infinity\n1,0\n")).hasMessageContaining("line 1 column 2");
    assertThatThrownBy(() -> parse("0,1\n1,0,2\n")).hasMessage("m.csv line 2: 3 values, expected 2");
    assertThatThrownBy(() -> parse("0,1,2\n1,0,2\n")).hasMessageContaining("not square");
    assertThatThrownBy(() -> parse("\n")).hasMessage("m.csv is empty");
  }

  @Test
  void readsTheRawSlicesTabSeparatedFormat() throws Exception {
    double[][] m = parse("0\t12.5\t7\n12.0  0\t30\n\n7\t31\t0\t\n");
    assertThat(m).hasDimensions(3, 3);
    assertThat(m[0][1]).isEqualTo(12.5);
    assertThat(m[1][2]).isEqualTo(30.0);
    assertThat(m[2][1]).isEqualTo(31.0);
    assertThatThrownBy(() -> parse("0\t1\n1\t0\t2\n")).hasMessage("m.csv line 2: 3 values, expected 2");
    assertThatThrownBy(() -> parse("0\tNaN\n1\t0\n")).hasMessageContaining("line 1 column 2: RTT must be finite");
  }

  @Test
  void aWrongSeparatorIsReportedWithoutQuotingTheWholeLine() {
    // tab-separated first row, commas further down: the whole comma line is one "cell"
    String row = "1,0,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20";
    assertThatThrownBy(() -> parse("0\t1\n" + row + "\n"))
        .hasMessageStartingWith("m.csv line 2 column 1: not a number: '1,0,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16... (")
        .hasMessageContaining(row.length() + " characters)")
        .hasMessageEndingWith("(cells are separated by whitespace: the first row has no comma)");
  }

  @Test
  void nodesSkipTheHeaderAndCheckIndices() {
    String[] names = RttMatrixCsv.parseNodes(List.of("index,name", "0,alpha", "", "2, gamma "), 3, "n.csv");
    assertThat(names).containsExactly("alpha", null, "gamma");
    assertThatThrownBy(() -> RttMatrixCsv.parseNodes(List.of("index,name", "3,x"), 3, "n.csv"))
        .hasMessage("n.csv line 2: index 3 outside 0..2");
    assertThatThrownBy(() -> RttMatrixCsv.parseNodes(List.of("0,a", "zz,b"), 3, "n.csv"))
        .hasMessage("n.csv line 2: expected index,name");
  }
}
