/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ['@electric-sql/pglite', 'postgres', 'nodemailer'],
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
