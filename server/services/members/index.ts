// The members folder's door: teams, invitations and which organization a person acts for.
export { activeMembership, membershipsOfUser, type Membership } from './memberships';
export { changeRole, listMembers, removeMember, transferOwnership, type MemberView } from './team';
export {
  acceptInvitationAsPerson,
  describeInvitation,
  invite,
  listInvitations,
  resendInvitation,
  revokeInvitation,
  INVITATION_PATH,
  INVITATION_TTL_MS,
  type InvitationView,
} from './invitations';
export { INVITATION_COOKIE, landNewUser } from './sign-up';
