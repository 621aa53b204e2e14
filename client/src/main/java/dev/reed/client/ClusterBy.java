package dev.reed.client;

/**
 * What Armitage's clustering groups the master list by when the client falls back to it
 * ({@link ReedClient.Builder#clustering}).
 */
public enum ClusterBy {
  /** The origin AS when the AS database knows any listed address, else the country, else no clustering (traditional). */
  AUTO,
  /** The origin AS of each server's address (Armitage, NOSSDAV 2008). */
  ORIGIN_AS,
  /** The country a location database gives each server's address (the country-code variant). */
  COUNTRY
}
