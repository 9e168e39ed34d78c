import * as React from 'react';
import { NavLink, Link, useLocation, useNavigate } from 'react-router-dom';
import clsx from 'clsx';

import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown';
import { Spinner } from '@/components/ui/spinner';
import { useLogout, useUser } from '@/lib/auth';
import { ROLES, useAuthorization } from '@/lib/authorization';
import { paths } from '@/config/paths';

import logo from '@/assets/logo.svg';

type IconProps = React.SVGProps<SVGSVGElement>;

export type SideNavigationItem = {
  name: string;
  to: string;
  icon: (props: IconProps) => React.ReactElement;
  badge?: number;
  adminOnly?: boolean;
};

type DashboardLayoutProps = {
  children: React.ReactNode;
  title?: string;
};

const HomeIcon = (props: IconProps) => (
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" {...props}>
    <path d="M3 12l9-9 9 9M5 10v10h5v-6h4v6h5V10" strokeWidth={2} />
  </svg>
);

const FolderIcon = (props: IconProps) => (
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" {...props}>
    <path d="M3 7h6l2 2h10v10H3z" strokeWidth={2} />
  </svg>
);

const UsersIcon = (props: IconProps) => (
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" {...props}>
    <circle cx="9" cy="8" r="4" strokeWidth={2} />
    <path d="M1 21c0-4 4-6 8-6s8 2 8 6M17 11a3 3 0 100-6" strokeWidth={2} />
  </svg>
);

const MenuIcon = (props: IconProps) => (
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" {...props}>
    <path d="M4 6h16M4 12h16M4 18h16" strokeWidth={2} />
  </svg>
);

const NAVIGATION: SideNavigationItem[] = [
  { name: 'Dashboard', to: paths.app.dashboard.getHref(), icon: HomeIcon },
  { name: 'Discussions', to: paths.app.discussions.getHref(), icon: FolderIcon },
  { name: 'Users', to: paths.app.users.getHref(), icon: UsersIcon, adminOnly: true },
];

function Logo() {
  return (
    <Link className="flex items-center text-white" to={paths.home.getHref()}>
      <img className="h-8 w-auto" src={logo} alt="Workspace" />
      <span className="ml-2 text-sm font-semibold text-white">Workspace</span>
    </Link>
  );
}

function NavigationItem({ item, collapsed }: { item: SideNavigationItem; collapsed: boolean }) {
  return (
    <NavLink
      to={item.to}
      end={item.name !== 'Discussions'}
      className={({ isActive }) =>
        clsx(
          'group flex flex-1 w-full items-center rounded-md p-2 text-base font-medium',
          'text-gray-300 hover:bg-gray-700 hover:text-white',
          isActive && 'bg-gray-900 text-white',
        )
      }
    >
      <item.icon
        className={clsx('size-6 shrink-0 text-gray-400 group-hover:text-gray-300', !collapsed && 'mr-4')}
        aria-hidden="true"
      />
      {!collapsed && item.name}
    </NavLink>
  );
}

function useVisibleNavigation(): SideNavigationItem[] {
  const { checkAccess } = useAuthorization();
  return React.useMemo(
    () =>
      NAVIGATION.filter(
        (item) => !item.adminOnly || checkAccess({ allowedRoles: [ROLES.ADMIN] }),
      ),
    [checkAccess],
  );
}

function Sidebar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const navigation = useVisibleNavigation();

  return (
    <aside
      className={clsx(
        'fixed inset-y-0 left-0 z-10 hidden flex-col border-r bg-black sm:flex',
        collapsed ? 'w-16' : 'w-60',
      )}
    >
      <nav className="flex flex-col items-center gap-4 px-2 py-4">
        <div className="flex h-16 shrink-0 items-center px-4">
          <Logo />
        </div>
        {navigation.map((item) => (
          <NavigationItem key={item.name} item={item} collapsed={collapsed} />
        ))}
      </nav>
      <div className="mt-auto p-2">
        <Button variant="ghost" size="sm" onClick={onToggle} aria-label="Toggle sidebar">
          {collapsed ? '»' : '«'}
        </Button>
      </div>
    </aside>
  );
}

function Breadcrumbs() {
  const location = useLocation();
  const segments = location.pathname.split('/').filter(Boolean);

  if (segments.length === 0) {
    return null;
  }

  return (
    <ol className="hidden items-center gap-1 text-sm text-gray-500 md:flex">
      {segments.map((segment, index) => {
        const href = '/' + segments.slice(0, index + 1).join('/');
        const last = index === segments.length - 1;
        return (
          <li key={href} className="flex items-center gap-1">
            {index > 0 && <span aria-hidden="true">/</span>}
            {last ? (
              <span className="font-medium text-gray-900">{decodeURIComponent(segment)}</span>
            ) : (
              <Link to={href} className="hover:underline">
                {decodeURIComponent(segment)}
              </Link>
            )}
          </li>
        );
      })}
    </ol>
  );
}

function UserMenu() {
  const user = useUser();
  const navigate = useNavigate();
  const logout = useLogout({
    onSuccess: () => navigate(paths.auth.login.getHref(location.pathname)),
  });

  if (!user.data) {
    return <Spinner size="sm" />;
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="icon" className="overflow-hidden rounded-full">
          <span className="sr-only">Open user menu</span>
          <Avatar name={`${user.data.firstName} ${user.data.lastName}`} />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onClick={() => navigate(paths.app.profile.getHref())}>
          Your Profile
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onClick={() => logout.mutate({})}>Sign Out</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function MobileNavigation({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigation = useVisibleNavigation();

  React.useEffect(() => {
    if (!open) {
      return;
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        onClose();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  if (!open) {
    return null;
  }

  return (
    <div className="fixed inset-0 z-20 bg-black/60 sm:hidden" onClick={onClose}>
      <nav className="grid w-60 gap-4 bg-black p-4 text-lg font-medium" onClick={(e) => e.stopPropagation()}>
        <div className="flex h-16 shrink-0 items-center">
          <Logo />
        </div>
        {navigation.map((item) => (
          <NavigationItem key={item.name} item={item} collapsed={false} />
        ))}
      </nav>
    </div>
  );
}

export function DashboardLayout({ children, title }: DashboardLayoutProps) {
  const [collapsed, setCollapsed] = React.useState(false);
  const [mobileOpen, setMobileOpen] = React.useState(false);
  const closeMobile = React.useCallback(() => setMobileOpen(false), []);

  React.useEffect(() => {
    if (title) {
      document.title = `${title} | Workspace`;
    }
  }, [title]);

  return (
    <div className="flex min-h-screen w-full flex-col bg-muted/40">
      <Sidebar collapsed={collapsed} onToggle={() => setCollapsed((value) => !value)} />
      <MobileNavigation open={mobileOpen} onClose={closeMobile} />
      <div className={clsx('flex flex-col sm:gap-4 sm:py-4', collapsed ? 'sm:pl-16' : 'sm:pl-60')}>
        <header className="sticky top-0 z-30 flex h-14 items-center justify-between gap-4 border-b bg-background px-4 sm:static sm:h-auto sm:border-0 sm:bg-transparent sm:px-6">
          <Button size="icon" variant="outline" className="sm:hidden" onClick={() => setMobileOpen(true)}>
            <MenuIcon className="size-5" />
            <span className="sr-only">Toggle Menu</span>
          </Button>
          <Breadcrumbs />
          <UserMenu />
        </header>
        <main className="grid flex-1 items-start gap-4 p-4 sm:px-6 sm:py-0 md:gap-8">{children}</main>
      </div>
    </div>
  );
}
