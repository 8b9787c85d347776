// Tailcall's JS hook for GET /group/user_joined: its data is a list of group IDs; the schema wants
// objects. Tailcall hands the body over and takes the new one back as JSON text.
function wrapIds(body) {
  var reply = typeof body === 'string' ? JSON.parse(body) : body;
  return JSON.stringify(
    reply.data.map(function (id) {
      return { group_id: id };
    }),
  );
}
