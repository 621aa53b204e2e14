package dev.reed.client;

import java.util.List;

/**
 * One page of a group ranking.
 *
 * @param members the members ranked for, in request order
 * @param servers by ascending score
 * @param nextPageToken cursor for the next page; empty when exhausted
 */
public record GroupRanking(List<GroupMember> members, List<GroupServer> servers, String nextPageToken) {
  public GroupRanking {
    members = List.copyOf(members);
    servers = List.copyOf(servers);
  }
}
