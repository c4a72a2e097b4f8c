/**
 * The account pages' own words: headings, labels and notices that spec 000 leaves to us. The texts the spec
 * does quote (§5, §8) come from the SDK (`SIGN_IN_TEXTS`, `AUTH_VALIDATION_TEXTS`…), shared with the CLI.
 */

export const SIGN_IN_PAGE_TEXTS = {
  title: 'Sign in to Planwright',
  intro: 'Welcome back. Sign in to keep working on your plans.',
  submit: 'Sign In',
  submitting: 'Signing in…',
  forgotPassword: 'Forgot password?',
  noAccount: 'New to Planwright?',
  signUp: 'Sign up',
  resend: 'Resend verification email',
  resending: 'Sending…',
  resent: 'Verification email sent! Please check your inbox.',
} as const;

export const SIGN_UP_PAGE_TEXTS = {
  title: 'Create your account',
  intro: 'Start drafting your business plan with AI help.',
  confirmPassword: 'Confirm password',
  termsBefore: 'I agree to the ',
  termsLink: 'Terms and Conditions',
  submit: 'Sign Up',
  submitting: 'Creating your account…',
  haveAccount: 'Already have an account?',
  signIn: 'Sign in',
  checkEmailTitle: 'Check your email',
  checkEmail: (email: string) =>
    `We sent a verification link to ${email}. Open it to activate your account, then sign in.`,
} as const;

export const PROVIDER_BUTTON_TEXTS = {
  google: 'Continue with Google',
  redirecting: 'Redirecting to Google…',
  divider: 'or',
} as const;

export const EMAIL_VERIFICATION_PAGE_TEXTS = {
  verifying: 'Verifying your email…',
  verifiedTitle: 'Email verified',
  verifiedToSignIn: 'Thank you! Your email address is verified. Taking you to sign in…',
  verifiedSignedIn: 'Thank you! Your email address is verified. Taking you to your dashboard…',
  failedTitle: 'We could not verify your email',
  alreadyVerifiedTitle: 'Email already verified',
  goToDashboard: 'Go to your dashboard',
  redirecting: 'Taking you to sign in…',
  resendTitle: 'Need a new link?',
  resendIntro: 'Enter your email address and we will send you a new verification link.',
  resend: 'Resend verification email',
  resending: 'Sending…',
  resent: 'If this address needs verifying, a new link is on its way. Please check your inbox.',
  signIn: 'Go to sign in',
} as const;

export const PASSWORD_RESET_PAGE_TEXTS = {
  requestTitle: 'Reset your password',
  requestIntro:
    'Enter the email address of your account and we will send you a link to choose a new password.',
  requestSubmit: 'Send reset link',
  requestSubmitting: 'Sending…',
  requestDoneTitle: 'Check your email',
  requestDone: (email: string) =>
    `If an account exists for ${email}, we have sent it a link to reset the password. The link is valid for 24 hours.`,
  backToSignIn: 'Back to sign in',
  checking: 'Checking your reset link…',
  title: 'Choose a new password',
  intro: 'Your new password must be at least 8 characters long.',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  submit: 'Set new password',
  submitting: 'Saving…',
  doneTitle: 'Password changed',
  doneToSignIn: 'Your password has been reset. Taking you to sign in…',
  doneSignedIn: 'Your password has been reset. Taking you to your dashboard…',
  goToSignIn: 'Go to sign in',
  goToDashboard: 'Go to your dashboard',
  expiredTitle: 'This link cannot be used',
  requestNew: 'Request a new link',
} as const;

export const PROVIDER_CALLBACK_PAGE_TEXTS = {
  checking: 'Signing you in…',
  signedIn: 'Signed in. Taking you on…',
  failedTitle: 'Sign-in did not complete',
  backToSignIn: 'Back to sign in',
} as const;

export const SIGN_OUT_PAGE_TEXTS = {
  signingOut: 'Signing you out…',
} as const;

export const BANNER_TEXTS = {
  message: 'Please verify your email address.',
  detail: (email: string) => `We sent a verification link to ${email}. Open it to confirm the address.`,
  resend: 'Resend',
  sending: 'Sending...',
  sent: 'Email sent!',
  dismiss: 'Dismiss',
} as const;

export const PROFILE_PAGE_TEXTS = {
  title: 'Profile',
  intro: 'Your name, email address and preferences.',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  language: 'Language',
  timezone: 'Time zone',
  notSet: 'Not set',
  cancel: 'Cancel',
  save: 'Save changes',
  saving: 'Saving…',
  saved: 'Your profile has been saved.',
  verificationSent: (email: string) =>
    `We sent a verification link to ${email}. Open it to confirm your new address.`,
  loading: 'Loading profile…',
  loadFailed: 'Your profile could not be loaded. Please try again.',
  retry: 'Try again',
} as const;

export const SIGNED_IN_TEXTS = {
  dashboard: 'Dashboard',
  profile: 'Profile',
  helpAndSupport: 'Help & Support',
  signOut: 'Sign Out',
  accountMenu: 'Account menu',
  welcome: (name: string) => `Welcome, ${name}`,
  welcomeAnonymous: 'Welcome',
  dashboardIntro: 'This is your Planwright home.',
  editProfile: 'Edit your profile',
} as const;
