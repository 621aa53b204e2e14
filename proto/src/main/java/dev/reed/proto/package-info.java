/**
 * Shared by every service beside the generated gRPC/protobuf contract ({@code dev.reed.proto.v1}):
 * Kafka topics, endpoint parsing, and the operator file formats (config lines, deny lists, target
 * files) with their file watcher and Kafka client properties.
 */
package dev.reed.proto;
