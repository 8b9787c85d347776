// GraphiQL as the gateway serves it: assets inlined (no CDN, so it works offline), a default
// document of example operations, the identity headers pre-filled, subscriptions over WebSocket.
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { GraphiQLOptions } from 'graphql-yoga';

export { renderGraphiQL };

/** Example operations GraphiQL opens with; a test validates them against the schema. */
export const DEFAULT_DOCUMENT = `# The IM GraphQL gateway. Press the run button and pick an operation.
# The headers below carry your identity (app_id, access-token), as the IM service expects.

query Me {
  me {
    id
    username
    nickName
    settings {
      groupConfirm
      noPush
    }
    devices {
      deviceSn
      platform
    }
  }
}

query MyGroups {
  me {
    joinedGroups {
      id
      name
      memberCount
      latestAnnouncement {
        title
        content
      }
      members(first: 20) {
        totalCount
        nodes {
          displayName
          user {
            id
            nickName
          }
        }
      }
    }
  }
}

query Unread {
  me {
    unreadConversations {
      conversationId
      unreadCount
      user {
        nickName
      }
      group {
        name
      }
    }
  }
}

mutation LogIn {
  loginByName(username: "alice", password: "demo-password") {
    token
    userId
    expiresAt
  }
}

# Put a user ID in the variables, e.g. { "to": "2000000000002" } (bob in the demo data).
mutation SendMessage($to: ID!) {
  sendMessage(input: { type: TEXT, content: "Hello from GraphiQL", targets: [$to], targetType: USER }) {
    ok
    messageIds
  }
}

subscription UnreadCounts {
  unreadCounts {
    conversationId
    unreadCount
  }
}
`;

export function graphiqlOptions(headers: Record<string, string> | undefined): GraphiQLOptions {
  return {
    title: 'IM GraphQL gateway',
    subscriptionsProtocol: 'WS',
    defaultQuery: DEFAULT_DOCUMENT,
    ...(headers ? { headers: JSON.stringify(headers, null, 2) } : {}),
  };
}
