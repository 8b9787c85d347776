/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query MyGroups($firstMembers: Int = 20) {\n  me {\n    joinedGroups {\n      nodes {\n        id\n        name\n        memberCount\n        latestAnnouncement {\n          title\n          content\n        }\n        members(first: $firstMembers) {\n          totalCount\n          pageInfo {\n            hasNextPage\n            endCursor\n          }\n          nodes {\n            userId\n            displayName\n          }\n        }\n      }\n    }\n  }\n}\n\nmutation CreateGroup($name: String!, $userIds: [ID!]) {\n  createGroup(input: {name: $name, type: PRIVATE, userIds: $userIds}) {\n    ok\n    group {\n      id\n      name\n      ownerId\n      memberCount\n    }\n  }\n}": typeof types.MyGroupsDocument,
    "mutation LogIn($username: String!, $password: String!, $deviceGuid: String) {\n  loginByName(username: $username, password: $password, deviceGuid: $deviceGuid) {\n    token\n    userId\n    expiresAt\n    pushToken\n  }\n}": typeof types.LogInDocument,
    "query Me {\n  me {\n    id\n    username\n    nickName\n    avatar\n    settings {\n      authMode\n      groupConfirm\n      noPush\n    }\n    devices {\n      nodes {\n        deviceSn\n        platform\n      }\n    }\n  }\n}\n\nmutation SetNickname($nickName: String!) {\n  setNickname(nickName: $nickName) {\n    ok\n    user {\n      id\n      nickName\n    }\n  }\n}": typeof types.MeDocument,
    "mutation SendText($to: ID!, $targetType: TargetType!, $content: String!) {\n  sendMessage(\n    input: {type: TEXT, content: $content, targets: [$to], targetType: $targetType}\n  ) {\n    ok\n    transactionId\n    messageIds\n  }\n}\n\nquery Unread {\n  me {\n    unreadConversations {\n      conversationId\n      unreadCount\n      user {\n        id\n      }\n      group {\n        id\n        name\n      }\n    }\n  }\n}\n\nquery History($with: ID!, $last: Int = 20, $before: String) {\n  me {\n    conversation(with: $with, last: $last, before: $before) {\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n      nodes {\n        id\n        type\n        content\n        sentAt\n        status\n        deviceSn\n        from {\n          id\n          nickName\n        }\n      }\n    }\n  }\n}\n\nmutation MarkRead($conversationId: ID!) {\n  markConversationRead(conversationId: $conversationId) {\n    ok\n  }\n}": typeof types.SendTextDocument,
    "subscription UnreadCounts {\n  unreadCounts {\n    conversationId\n    unreadCount\n  }\n}\n\nsubscription ConversationMessages($with: ID!) {\n  conversationMessages(with: $with) {\n    id\n    type\n    content\n    sentAt\n  }\n}": typeof types.UnreadCountsDocument,
};
const documents: Documents = {
    "query MyGroups($firstMembers: Int = 20) {\n  me {\n    joinedGroups {\n      nodes {\n        id\n        name\n        memberCount\n        latestAnnouncement {\n          title\n          content\n        }\n        members(first: $firstMembers) {\n          totalCount\n          pageInfo {\n            hasNextPage\n            endCursor\n          }\n          nodes {\n            userId\n            displayName\n          }\n        }\n      }\n    }\n  }\n}\n\nmutation CreateGroup($name: String!, $userIds: [ID!]) {\n  createGroup(input: {name: $name, type: PRIVATE, userIds: $userIds}) {\n    ok\n    group {\n      id\n      name\n      ownerId\n      memberCount\n    }\n  }\n}": types.MyGroupsDocument,
    "mutation LogIn($username: String!, $password: String!, $deviceGuid: String) {\n  loginByName(username: $username, password: $password, deviceGuid: $deviceGuid) {\n    token\n    userId\n    expiresAt\n    pushToken\n  }\n}": types.LogInDocument,
    "query Me {\n  me {\n    id\n    username\n    nickName\n    avatar\n    settings {\n      authMode\n      groupConfirm\n      noPush\n    }\n    devices {\n      nodes {\n        deviceSn\n        platform\n      }\n    }\n  }\n}\n\nmutation SetNickname($nickName: String!) {\n  setNickname(nickName: $nickName) {\n    ok\n    user {\n      id\n      nickName\n    }\n  }\n}": types.MeDocument,
    "mutation SendText($to: ID!, $targetType: TargetType!, $content: String!) {\n  sendMessage(\n    input: {type: TEXT, content: $content, targets: [$to], targetType: $targetType}\n  ) {\n    ok\n    transactionId\n    messageIds\n  }\n}\n\nquery Unread {\n  me {\n    unreadConversations {\n      conversationId\n      unreadCount\n      user {\n        id\n      }\n      group {\n        id\n        name\n      }\n    }\n  }\n}\n\nquery History($with: ID!, $last: Int = 20, $before: String) {\n  me {\n    conversation(with: $with, last: $last, before: $before) {\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n      nodes {\n        id\n        type\n        content\n        sentAt\n        status\n        deviceSn\n        from {\n          id\n          nickName\n        }\n      }\n    }\n  }\n}\n\nmutation MarkRead($conversationId: ID!) {\n  markConversationRead(conversationId: $conversationId) {\n    ok\n  }\n}": types.SendTextDocument,
    "subscription UnreadCounts {\n  unreadCounts {\n    conversationId\n    unreadCount\n  }\n}\n\nsubscription ConversationMessages($with: ID!) {\n  conversationMessages(with: $with) {\n    id\n    type\n    content\n    sentAt\n  }\n}": types.UnreadCountsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MyGroups($firstMembers: Int = 20) {\n  me {\n    joinedGroups {\n      nodes {\n        id\n        name\n        memberCount\n        latestAnnouncement {\n          title\n          content\n        }\n        members(first: $firstMembers) {\n          totalCount\n          pageInfo {\n            hasNextPage\n            endCursor\n          }\n          nodes {\n            userId\n            displayName\n          }\n        }\n      }\n    }\n  }\n}\n\nmutation CreateGroup($name: String!, $userIds: [ID!]) {\n  createGroup(input: {name: $name, type: PRIVATE, userIds: $userIds}) {\n    ok\n    group {\n      id\n      name\n      ownerId\n      memberCount\n    }\n  }\n}"): (typeof documents)["query MyGroups($firstMembers: Int = 20) {\n  me {\n    joinedGroups {\n      nodes {\n        id\n        name\n        memberCount\n        latestAnnouncement {\n          title\n          content\n        }\n        members(first: $firstMembers) {\n          totalCount\n          pageInfo {\n            hasNextPage\n            endCursor\n          }\n          nodes {\n            userId\n            displayName\n          }\n        }\n      }\n    }\n  }\n}\n\nmutation CreateGroup($name: String!, $userIds: [ID!]) {\n  createGroup(input: {name: $name, type: PRIVATE, userIds: $userIds}) {\n    ok\n    group {\n      id\n      name\n      ownerId\n      memberCount\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LogIn($username: String!, $password: String!, $deviceGuid: String) {\n  loginByName(username: $username, password: $password, deviceGuid: $deviceGuid) {\n    token\n    userId\n    expiresAt\n    pushToken\n  }\n}"): (typeof documents)["mutation LogIn($username: String!, $password: String!, $deviceGuid: String) {\n  loginByName(username: $username, password: $password, deviceGuid: $deviceGuid) {\n    token\n    userId\n    expiresAt\n    pushToken\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Me {\n  me {\n    id\n    username\n    nickName\n    avatar\n    settings {\n      authMode\n      groupConfirm\n      noPush\n    }\n    devices {\n      nodes {\n        deviceSn\n        platform\n      }\n    }\n  }\n}\n\nmutation SetNickname($nickName: String!) {\n  setNickname(nickName: $nickName) {\n    ok\n    user {\n      id\n      nickName\n    }\n  }\n}"): (typeof documents)["query Me {\n  me {\n    id\n    username\n    nickName\n    avatar\n    settings {\n      authMode\n      groupConfirm\n      noPush\n    }\n    devices {\n      nodes {\n        deviceSn\n        platform\n      }\n    }\n  }\n}\n\nmutation SetNickname($nickName: String!) {\n  setNickname(nickName: $nickName) {\n    ok\n    user {\n      id\n      nickName\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation SendText($to: ID!, $targetType: TargetType!, $content: String!) {\n  sendMessage(\n    input: {type: TEXT, content: $content, targets: [$to], targetType: $targetType}\n  ) {\n    ok\n    transactionId\n    messageIds\n  }\n}\n\nquery Unread {\n  me {\n    unreadConversations {\n      conversationId\n      unreadCount\n      user {\n        id\n      }\n      group {\n        id\n        name\n      }\n    }\n  }\n}\n\nquery History($with: ID!, $last: Int = 20, $before: String) {\n  me {\n    conversation(with: $with, last: $last, before: $before) {\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n      nodes {\n        id\n        type\n        content\n        sentAt\n        status\n        deviceSn\n        from {\n          id\n          nickName\n        }\n      }\n    }\n  }\n}\n\nmutation MarkRead($conversationId: ID!) {\n  markConversationRead(conversationId: $conversationId) {\n    ok\n  }\n}"): (typeof documents)["mutation SendText($to: ID!, $targetType: TargetType!, $content: String!) {\n  sendMessage(\n    input: {type: TEXT, content: $content, targets: [$to], targetType: $targetType}\n  ) {\n    ok\n    transactionId\n    messageIds\n  }\n}\n\nquery Unread {\n  me {\n    unreadConversations {\n      conversationId\n      unreadCount\n      user {\n        id\n      }\n      group {\n        id\n        name\n      }\n    }\n  }\n}\n\nquery History($with: ID!, $last: Int = 20, $before: String) {\n  me {\n    conversation(with: $with, last: $last, before: $before) {\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n      nodes {\n        id\n        type\n        content\n        sentAt\n        status\n        deviceSn\n        from {\n          id\n          nickName\n        }\n      }\n    }\n  }\n}\n\nmutation MarkRead($conversationId: ID!) {\n  markConversationRead(conversationId: $conversationId) {\n    ok\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription UnreadCounts {\n  unreadCounts {\n    conversationId\n    unreadCount\n  }\n}\n\nsubscription ConversationMessages($with: ID!) {\n  conversationMessages(with: $with) {\n    id\n    type\n    content\n    sentAt\n  }\n}"): (typeof documents)["subscription UnreadCounts {\n  unreadCounts {\n    conversationId\n    unreadCount\n  }\n}\n\nsubscription ConversationMessages($with: ID!) {\n  conversationMessages(with: $with) {\n    id\n    type\n    content\n    sentAt\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;