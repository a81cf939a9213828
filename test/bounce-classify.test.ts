import { describe, expect, it } from 'vitest';
import { BOUNCE_CLASSES, classifyResponse, enhancedCodeOf, explainComplaint, type BounceClass, type BounceInput } from '@/server/services/bounces/classify';

/**
 * Real-world refusals, as providers word them (and as the delivery pipeline stores them: the SMTP
 * reply after `host [ip]: `, or a DSN's Diagnostic-Code with its Status apart).
 */
const CASES: Array<[string, BounceInput, BounceClass]> = [
  // Gmail
  ['Gmail unknown mailbox', { text: 'gmail-smtp-in.l.google.com [142.250.1.27] (TLS): 550-5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient\'s email address for typos or unnecessary spaces. For more information, go to https://support.google.com/mail/?p=NoSuchUser 41be03b00d2f7-5e1c3f0b0b2si' }, 'mailbox_unknown'],
  ['Gmail disabled account', { text: '550-5.2.1 The email account that you tried to reach is disabled. https://support.google.com/mail/?p=DisabledUser' }, 'mailbox_unknown'],
  ['Gmail over quota (4xx)', { text: '452-4.2.2 The email account that you tried to reach is over quota. Please direct the recipient to https://support.google.com/mail/?p=OverQuotaTemp', kind: 'delayed' }, 'mailbox_full'],
  ['Gmail unusual rate', { text: '421-4.7.0 Our system has detected an unusual rate of unsolicited mail originating from your IP address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited.', kind: 'delayed' }, 'rate_limited'],
  ['Gmail likely unsolicited', { text: '550-5.7.1 Our system has detected that this message is likely unsolicited mail. To reduce the amount of spam sent to Gmail, this message has been blocked.' }, 'spam_block'],
  ['Gmail DMARC', { text: "550-5.7.26 Unauthenticated email from example.com is not accepted due to domain's DMARC policy. Please contact the administrator of example.com domain." }, 'policy'],
  ['Gmail SPF/DKIM', { text: '550-5.7.26 This mail has been blocked because the sender is unauthenticated. Gmail requires all senders to authenticate with either SPF or DKIM.' }, 'policy'],
  ['Gmail message too large', { text: '552-5.2.3 Your message exceeded Google\'s message size limits. Please visit https://support.google.com/mail/?p=MaxSizeError' }, 'message_too_large'],
  ['Gmail TLS required', { text: '530 5.7.0 Must issue a STARTTLS command first.' }, 'tls_required'],
  ['Gmail receiving too fast', { text: '452-4.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages from being delivered. https://support.google.com/mail/?p=ReceivingRatePerm', kind: 'delayed' }, 'rate_limited'],
  // Microsoft (Outlook.com, Exchange Online)
  ['Microsoft mailbox unavailable', { text: 'outlook-com.olc.protection.outlook.com [52.101.1.1]: 550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302). [AM4PEPF00025F97.EURPRD83.prod.outlook.com]' }, 'mailbox_unknown'],
  ['Microsoft RecipNotFound', { text: '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup' }, 'mailbox_unknown'],
  ['Exchange Online access denied', { text: '550 5.4.1 Recipient address rejected: Access denied. For more information see https://aka.ms/EXOSmtpErrors [DB5PEPF00014B8E.eurprd02.prod.outlook.com]' }, 'mailbox_unknown'],
  ['Microsoft S3150 block list', { text: "550 5.7.1 Unfortunately, messages from [203.0.113.7] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150). You can also refer your provider to http://mail.live.com/mail/troubleshooting.aspx#errors." }, 'spam_block'],
  ['Microsoft S3140 Spamhaus', { text: '550 5.7.1 Service unavailable, Client host [203.0.113.7] blocked using Spamhaus. To request removal from this list see https://www.spamhaus.org/query/ip/203.0.113.7 (AS3130) (S3140)' }, 'spam_block'],
  ['Microsoft server busy', { text: '451 4.7.500 Server busy. Please try again later from [203.0.113.7]. (S77714) [DM6NAM12FT062.eop-nam12.prod.protection.outlook.com]', kind: 'delayed' }, 'rate_limited'],
  ['Microsoft IP reputation throttle', { text: '451 4.7.650 The mail server [203.0.113.7] has been temporarily rate limited due to IP reputation. For e-mail delivery information, see https://postmaster.live.com (S775)', kind: 'delayed' }, 'rate_limited'],
  ['Microsoft banned IP', { text: '550 5.7.606 Access denied, banned sending IP [203.0.113.7]. To request removal from this list please visit https://sender.office.com/' }, 'spam_block'],
  ['Exchange DMARC', { text: '550 5.7.509 Access denied, sending domain example.com does not pass DMARC verification and has a DMARC policy of reject.' }, 'policy'],
  ['Exchange mailbox full', { text: '554 5.2.2 mailbox full; STOREDRV.Deliver.Exception:QuotaExceededException.MapiExceptionShutoffQuotaExceeded' }, 'mailbox_full'],
  // Yahoo / AOL
  ['Yahoo TSS04', { text: '421 4.7.0 [TSS04] Messages from 203.0.113.7 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes', kind: 'delayed' }, 'rate_limited'],
  ['Yahoo no account', { text: "554 delivery error: dd This user doesn't have a yahoo.com account (someone@yahoo.com) [0] - mta1234.mail.bf1.yahoo.com" }, 'mailbox_unknown'],
  ['Yahoo mailbox full', { text: '552 1 Requested mail action aborted, mailbox not found' }, 'mailbox_unknown'],
  ['Yahoo TSS09', { text: '553 5.7.2 [TSS09] All messages from 203.0.113.7 will be permanently deferred; Retrying will NOT succeed. See https://postmaster.yahooinc.com/error-codes' }, 'spam_block'],
  ['Yahoo policy', { text: '554 5.7.9 Message not accepted for policy reasons.  See https://postmaster.yahooinc.com/error-codes' }, 'policy'],
  ['AOL DMARC', { text: '554 5.7.9 Message not accepted for policy reasons. DMARC policy of example.com rejects.' }, 'policy'],
  // GMX / Web.de / 1&1
  ['GMX mailbox unavailable', { text: 'mx00.emig.gmx.net [212.227.15.9] (TLS): 550 Requested action not taken: mailbox unavailable' }, 'mailbox_unknown'],
  ['Web.de policy', { text: '554-Transaction failed Reject due to policy restrictions. For explanation visit https://web.de/email/senderguidelines?ip=203.0.113.7&c=hi' }, 'policy'],
  ['GMX spam content', { text: '554-Transaction failed 554-Reject due to spam content. For explanation visit https://www.gmx.net/mail/senderguidelines' }, 'spam_block'],
  ['1&1 mailbox full', { text: '452 4.2.2 Mailbox full' , kind: 'delayed' }, 'mailbox_full'],
  // Orange / Free / La Poste
  ['Orange OFR004', { text: '550 5.7.1 Service refuse. Veuillez essayer plus tard. service refused, please try later. OFR004_104 [104]' }, 'spam_block'],
  ['Orange too many connections', { text: '421 mwinf5c15 ME Trop de connexions, veuillez verifier votre configuration. Too many connections, slow down. OFR005_104 [104]', kind: 'delayed' }, 'rate_limited'],
  ['Orange invalid recipient', { text: "550 5.1.1 Adresse d au moins un destinataire invalide. Invalid recipient. OFR_416 [416]" }, 'mailbox_unknown'],
  ['Free mailbox full', { text: '552 5.2.2 Quota exceeded (mailbox for user is full)' }, 'mailbox_full'],
  // Postfix, Exim, other MTAs
  ['Postfix virtual table', { text: '550 5.1.1 <ada@example.net>: Recipient address rejected: User unknown in virtual mailbox table' }, 'mailbox_unknown'],
  ['Postfix greylisting', { text: '450 4.2.0 <ada@example.net>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/example.net.html', kind: 'delayed' }, 'greylisted'],
  ['Greylisting 4.7.1', { text: '450 4.7.1 <ada@example.net>: Recipient address rejected: Greylisted, please try again in 300 seconds', kind: 'delayed' }, 'greylisted'],
  ['Bare try again later', { text: '451 4.7.1 Please try again later', kind: 'delayed' }, 'greylisted'],
  ['Postfix relay denied', { text: '554 5.7.1 <ada@example.net>: Relay access denied' }, 'policy'],
  ['Postfix size', { text: '552 5.3.4 Message size exceeds fixed limit' }, 'message_too_large'],
  ['Exim unrouteable', { text: '550 Unrouteable address' }, 'domain_missing'],
  ['Exim too big', { text: '552 Message size exceeds maximum permitted' }, 'message_too_large'],
  ['Host not found', { text: '550 5.1.2 Host or domain name not found. Name service error for name=exampel.com type=A: Host not found' }, 'domain_missing'],
  ['Barracuda', { text: '554 5.7.1 Service unavailable; Client host [203.0.113.7] blocked using Barracuda Reputation; http://www.barracudanetworks.com/reputation/?pr=1&ip=203.0.113.7' }, 'spam_block'],
  ['SpamCop', { text: '554 5.7.1 Rejected 203.0.113.7 found in bl.spamcop.net' }, 'spam_block'],
  ['Proofpoint reverse DNS', { text: '550 5.7.25 [203.0.113.7] The IP address sending this message does not have a PTR record setup' }, 'policy'],
  ['SPF fail', { text: '550 5.7.23 The message was rejected because of Sender Policy Framework violation' }, 'policy'],
  ['TLS encryption needed', { text: '451 5.7.10 Encryption needed for this recipient', kind: 'delayed' }, 'tls_required'],
  ['TLS required text', { text: '554 5.7.11 TLS is required for this domain' }, 'tls_required'],
  ['Rate limit exceeded', { text: '421 4.7.28 Our system has detected an unusual rate of mail originating from your IP address. rate limit exceeded', kind: 'delayed' }, 'rate_limited'],
  ['German unknown user', { text: '550 5.1.1 Benutzer unbekannt / user unknown' }, 'mailbox_unknown'],
  ['Generic 4.7.x', { text: '450 4.7.3 Temporary organization policy hold', kind: 'delayed' }, 'rate_limited'],
  ['Generic 5.7.x', { text: '550 5.7.0 Message rejected' }, 'policy'],
  ['Bare 552 without enhanced code', { text: '552 Too much mail data' }, 'message_too_large'],
  ['Unknown 5xx', { text: '554 5.6.0 Message corrupted' }, 'other'],
  ['Unknown 4xx', { text: '451 4.3.0 Temporary local problem', kind: 'delayed' }, 'other'],
  // What the pipeline itself writes when no server answered
  ['null MX', { text: 'example.org publishes a null MX (RFC 7505): it accepts no mail' }, 'domain_missing'],
  ['no MX, A or AAAA', { text: 'nowhere.example has no MX, A or AAAA record: it does not exist or accepts no mail' }, 'domain_missing'],
  ['connection refused', { text: 'mx.example.net [192.0.2.1]: ECONNREFUSED: connect ECONNREFUSED 192.0.2.1:25', kind: 'delayed' }, 'other'],
  ['local size refusal', { text: 'not sent: Message size larger than allowed 1000000' }, 'message_too_large'],
  // DSN: the Status apart from the Diagnostic-Code
  ['DSN status only', { enhanced: '5.1.1', text: '' }, 'mailbox_unknown'],
  ['DSN 4.2.2', { enhanced: '4.2.2', text: '', kind: 'delayed' }, 'mailbox_full'],
  ['DSN 5.4.4', { enhanced: '5.4.4', text: '' }, 'domain_missing'],
  ['DSN 5.1.10 null MX', { enhanced: '5.1.10', text: 'smtp; 556 5.1.10 Recipient address has null MX' }, 'domain_missing'],
];

describe('classifyResponse over real-world responses', () => {
  it.each(CASES)('%s', (_name, input, expected) => {
    const result = classifyResponse(input);
    expect(result.class).toBe(expected);
    expect(result.explanation.length).toBeGreaterThan(40);
  });

  it('covers every refusal class, with 4xx and 5xx answers', () => {
    const covered = new Set(CASES.map(([, , expected]) => expected));
    expect([...covered].sort()).toEqual(BOUNCE_CLASSES.filter((name) => name !== 'complaint').sort());
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(CASES.some(([, input]) => /(^|: )4\d\d/.test(input.text))).toBe(true);
    expect(CASES.some(([, input]) => /(^|: )5\d\d/.test(input.text))).toBe(true);
  });
});

describe('the explanation', () => {
  it('says what it means, then what to do, after a bounce that suppressed the address', () => {
    expect(classifyResponse({ text: '550 5.1.1 no such user' }).explanation).toBe(
      "The address does not exist at the recipient's provider, or its account was closed. The address is now suppressed; remove it from your list or ask the person for a corrected address.",
    );
  });

  it('does not claim a suppression that did not happen (test mode)', () => {
    const { explanation } = classifyResponse({ text: '550 5.1.1 simulated bounce', suppressed: false });
    expect(explanation).not.toMatch(/suppressed/);
    expect(explanation).toMatch(/Remove it from your list/);
  });

  it('says a delay is retried, and a failure was given up on', () => {
    expect(classifyResponse({ text: '452 4.2.2 mailbox full', kind: 'delayed' }).explanation).toMatch(/retried automatically/);
    expect(classifyResponse({ text: 'ECONNREFUSED', kind: 'failed' }).explanation).toMatch(/^No mail server .* given up after repeated tries/);
  });

  it('names DMARC when the response does', () => {
    expect(classifyResponse({ text: "550-5.7.26 Unauthenticated email from example.com is not accepted due to domain's DMARC policy." }).explanation).toMatch(/^The message failed the DMARC check/);
    expect(classifyResponse({ enhanced: '5.7.26', text: '' }).explanation).toMatch(/DMARC/);
  });

  it('lets a specific text win over a generic enhanced code, and a specific code over a generic text', () => {
    expect(classifyResponse({ text: '550 5.7.1 Client host blocked using Spamhaus' }).class).toBe('spam_block');
    expect(classifyResponse({ text: '550 5.2.2 Requested action not taken: mailbox unavailable' }).class).toBe('mailbox_full');
  });
});

describe('enhancedCodeOf', () => {
  it('reads the code given, else the first in the text, never a piece of an IP address', () => {
    expect(enhancedCodeOf({ enhanced: '5.1.1', text: '550 5.7.1 x' })).toBe('5.1.1');
    expect(enhancedCodeOf({ text: 'mx.example.net [10.4.4.5]: 550-5.1.1 gone' })).toBe('5.1.1');
    expect(enhancedCodeOf({ text: 'mx.example.net [10.4.4.5]: 550 gone' })).toBeNull();
  });
});

describe('explainComplaint', () => {
  it('explains each ARF feedback type as a complaint', () => {
    expect(explainComplaint({ feedbackType: 'abuse' })).toEqual({ class: 'complaint', explanation: expect.stringMatching(/marked the message as spam.*now suppressed/) });
    expect(explainComplaint({ feedbackType: 'fraud' }).explanation).toMatch(/fraud or phishing/);
    expect(explainComplaint({ feedbackType: 'virus' }).explanation).toMatch(/virus/);
    expect(explainComplaint({ feedbackType: 'something-new' }).explanation).toMatch(/without saying what kind/);
    expect(explainComplaint({ suppressed: false }).explanation).not.toMatch(/suppressed/);
  });
});
