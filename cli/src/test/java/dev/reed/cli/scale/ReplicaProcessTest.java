package dev.reed.cli.scale;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reading the heap after {@code jcmd GC.run} from a replica's unified GC log (lines as the JDK writes them). */
class ReplicaProcessTest {
  @Test
  void theHeapAfterTheDiagnosticCommandCollectionIsReadFromItsLogLine() {
    assertThat(ReplicaProcess.heapAfter("[139.543s] GC(41) Pause Full (Diagnostic Command) 1212M->385M(2981M) 655.364ms"))
        .isEqualTo(385L << 20);
    assertThat(ReplicaProcess.heapAfter("[3.491s] GC(1) Pause Full (Diagnostic Command) 18432K->19000K(2944M) 32.9ms"))
        .isEqualTo(19000L << 10);
    assertThat(ReplicaProcess.heapAfter("[9.1s] GC(7) Pause Full (Diagnostic Command) 5G->2G(6G) 2100.0ms")).isEqualTo(2L << 30);
    // other collections and safepoint lines are not it
    assertThat(ReplicaProcess.heapAfter("[138.875s] GC(41) Pause Young (Allocation Failure) 1566M->737M(2994M) 43.573ms"))
        .isEqualTo(-1);
    assertThat(ReplicaProcess.heapAfter("[154.068s] GC(45) Pause Full (Heap Inspection Initiated GC) 1201M->497M(2993M) 1175.404ms"))
        .isEqualTo(-1);
    assertThat(ReplicaProcess.heapAfter("[138.879s] Safepoint \"ParallelGCCollect\", Time since last: 1 ns")).isEqualTo(-1);
  }
}
