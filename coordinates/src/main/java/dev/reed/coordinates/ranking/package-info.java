/**
 * Ordering servers by predicted RTT to a client (REED Algorithm 4): the ranking index with its
 * filters and paging cursors, group ranking, and the adaptive probe order.
 */
package dev.reed.coordinates.ranking;
