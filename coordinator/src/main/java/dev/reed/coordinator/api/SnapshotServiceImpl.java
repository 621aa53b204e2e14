package dev.reed.coordinator.api;

import com.google.protobuf.Timestamp;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.ListLandmarksRequest;
import dev.reed.proto.v1.ListLandmarksResponse;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerCoordinateChunk;
import dev.reed.proto.v1.SnapshotHeader;
import dev.reed.proto.v1.SnapshotServiceGrpc;
import dev.reed.proto.v1.StreamSnapshotRequest;
import dev.reed.proto.v1.StreamSnapshotResponse;
import io.grpc.Context;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Read-only access to the coordinate space for analysts: the landmarks of the current embedding,
 * and the whole served index as a stream (header, then chunks), all from one {@link ServingState}
 * so a snapshot is consistent even while the index is swapped underneath.
 */
public final class SnapshotServiceImpl extends SnapshotServiceGrpc.SnapshotServiceImplBase {
  static final int DEFAULT_CHUNK = 1000;
  static final int MAX_CHUNK = 10_000;

  private final Supplier<ServingState> state;
  private final Supplier<dev.reed.coordinator.location.GeoModel> geo;

  public SnapshotServiceImpl(Supplier<ServingState> state) {
    this(state, () -> dev.reed.coordinator.location.GeoModel.NONE);
  }

  /** @param geo locations added to each server (placement, geo_excess_us) */
  public SnapshotServiceImpl(Supplier<ServingState> state, Supplier<dev.reed.coordinator.location.GeoModel> geo) {
    this.state = state;
    this.geo = geo;
  }

  @Override
  public void listLandmarks(ListLandmarksRequest req, StreamObserver<ListLandmarksResponse> out) {
    ServingState s = state.get();
    List<LandmarkCoordinate> listed = new ArrayList<>(s.landmarks().values());
    if (req.getIncludeQuarantined()) listed.addAll(s.quarantinedLandmarks().values());
    List<LandmarkCoordinate> landmarks = new ArrayList<>(listed.size());
    for (LandmarkCoordinate c : listed) {
      // what web pages need beside the coordinate: the WebSocket beacon and where the landmark is
      dev.reed.proto.v1.Landmark announced = s.announcements().get(c.getLandmarkId());
      if (announced == null) {
        landmarks.add(c);
        continue;
      }
      LandmarkCoordinate.Builder b = c.toBuilder().setWsBeaconUrl(announced.getWsBeaconUrl());
      if (announced.hasLocation()) b.setLocation(announced.getLocation());
      landmarks.add(b.build());
    }
    landmarks.sort(Comparator.comparing(LandmarkCoordinate::getLandmarkId));
    out.onNext(ListLandmarksResponse.newBuilder().addAllLandmarks(landmarks).setDimensions(s.dimensions())
        .setHeightModel(s.heightModel()).build());
    out.onCompleted();
  }

  @Override
  public void streamSnapshot(StreamSnapshotRequest req, StreamObserver<StreamSnapshotResponse> out) {
    int chunk = req.getChunkSize();
    if (chunk < 0 || chunk > MAX_CHUNK) {
      throw RequestMapping.invalid("chunk_size is too large: " + Integer.toUnsignedString(chunk) + " (at most " + MAX_CHUNK + ")");
    }
    if (chunk == 0) chunk = DEFAULT_CHUNK;
    ServingState s = state.get();
    dev.reed.coordinator.location.GeoModel g = geo.get();
    List<ServerCoordinate> servers = new ArrayList<>(s.servers().size());
    for (ServerCoordinate c : s.servers().values()) servers.add(g.decorate(c));
    servers.sort(Comparator.comparing(c -> dev.reed.proto.Endpoints.key(c.getEndpoint())));
    out.onNext(StreamSnapshotResponse.newBuilder().setHeader(SnapshotHeader.newBuilder()
        .setIndexTime(Timestamp.newBuilder().setSeconds(s.builtAt().getEpochSecond()).setNanos(s.builtAt().getNano()))
        .setDimensions(s.dimensions()).setHeightModel(s.heightModel()).setServerCount(servers.size())
        .setLandmarkEpoch(s.landmarkEpoch())).build());
    ServerCallStreamObserver<StreamSnapshotResponse> call = (ServerCallStreamObserver<StreamSnapshotResponse>) out;
    int size = chunk;
    Runnable drain = new Runnable() {
      private int next;
      private boolean done;

      @Override
      public synchronized void run() {
        while (!done && call.isReady()) {
          if (call.isCancelled() || Context.current().isCancelled()) {
            done = true;
            return;
          }
          if (next >= servers.size()) {
            done = true;
            call.onCompleted();
            return;
          }
          int to = Math.min(servers.size(), next + size);
          call.onNext(StreamSnapshotResponse.newBuilder()
              .setChunk(ServerCoordinateChunk.newBuilder().addAllServers(servers.subList(next, to))).build());
          next = to;
        }
      }
    };
    call.setOnReadyHandler(drain); // flow control: a chunk only when the client can take it
    drain.run();
  }
}
