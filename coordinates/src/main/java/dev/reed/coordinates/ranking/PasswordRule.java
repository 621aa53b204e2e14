package dev.reed.coordinates.ranking;

/** Password filter of a server browser: any server, only open ones, or only passworded ones. */
public enum PasswordRule { ANY, EXCLUDE, ONLY }
