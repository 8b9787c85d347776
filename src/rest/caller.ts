// Who a REST call is made for. The gateway takes these from the GraphQL request headers (or the
// WebSocket connectionParams) and the client forwards them as the upstream's common headers.

export interface Caller {
  /** Forwarded as `app_id`; the client's configured default applies when absent. */
  appId?: string;
  /** Forwarded as `access-token`. A secret: never logged, never put into an error message. */
  token?: string;
  /** Forwarded as `user_id` (with an admin token the call runs as that user). */
  userId?: string;
  /** Forwarded as `group_id`, except to endpoints marked 'no group_id header'. */
  groupId?: string;
}
