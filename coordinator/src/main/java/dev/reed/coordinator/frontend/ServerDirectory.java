package dev.reed.coordinator.frontend;

import dev.reed.proto.v1.GameProtocol;
import java.util.List;

/** The servers of one protocol a master front end lists, as this replica knows them now. */
@FunctionalInterface
public interface ServerDirectory {
  List<ListedServer> servers(GameProtocol protocol);
}
