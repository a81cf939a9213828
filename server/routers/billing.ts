import { z } from 'zod';
import { customerPortalLink, listInvoices } from '../services/billing/invoices';
import { router } from '../trpc/init';
import { personProcedure } from '../trpc/procedures';

/** The billing page's Stripe side (docs/billing.md): dashboard only, the owner and billing members. */
export const billingRouter = router({
  /** The organization's invoices, newest first; empty without Stripe or before the first payment. */
  invoices: personProcedure.input(z.object({}).optional()).query(({ ctx }) => listInvoices(ctx.deps, ctx.principal)),
  /** A link to Stripe's customer portal (payment method, billing address, VAT number). */
  portal: personProcedure.input(z.object({}).optional()).mutation(({ ctx }) => customerPortalLink(ctx.deps, ctx.principal)),
});
